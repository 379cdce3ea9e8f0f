import Foundation

/// WebKit's tracker classifier (`ResourceLoadStatisticsClassifier::
/// calculateResourcePrevalence`): a domain is prevalent when any of the
/// counts of top-level sites it was a subresource or a frame under, or of
/// domains it redirected subresources or top frames to, exceeds the
/// threshold, or when the first three counts, as a vector, are longer than
/// it; very prevalent when that vector is longer than the higher threshold.
/// Prevalence never goes back.
enum ResourceLoadClassifier {
  enum Prevalence: Comparable { case low, high, veryHigh }

  static func prevalence(of statistics: ResourceLoadStatistics, policy: TrackingPreventionPolicy)
    -> Prevalence
  {
    let subresource = Double(statistics.subresourceUnderTopFrameDomains.count)
    let redirects = Double(statistics.subresourceUniqueRedirectsTo.count)
    let subframe = Double(statistics.subframeUnderTopFrameDomains.count)
    let topFrameRedirects = statistics.topFrameUniqueRedirectsTo.count
    let length = (subresource * subresource + redirects * redirects + subframe * subframe)
      .squareRoot()
    if statistics.isVeryPrevalent || length > Double(policy.veryPrevalenceThreshold) {
      return .veryHigh
    }
    let threshold = Double(policy.prevalenceThreshold)
    if statistics.isPrevalent || subresource > threshold || redirects > threshold
      || subframe > threshold || Double(topFrameRedirects) > threshold || length > threshold
    {
      return .high
    }
    return .low
  }
}
