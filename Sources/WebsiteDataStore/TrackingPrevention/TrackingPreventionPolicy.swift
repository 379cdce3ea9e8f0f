import Foundation

/// Every threshold, window and cap of tracking prevention, as data (WebKit's
/// Intelligent Tracking Prevention `ResourceLoadStatisticsParameters`, whose
/// values are the defaults). `Codable`, so that a store can keep it (a
/// field missing from a saved policy takes WebKit's value); ``off`` is a
/// policy too.
public struct TrackingPreventionPolicy: Sendable, Hashable, Codable {
  /// Whether loads are recorded and the rules applied at all.
  public var isEnabled = true
  /// A domain is prevalent (a tracker) when any of its counts — top-level
  /// sites it was loaded under as a subresource or as a frame, sites it
  /// redirected subresources or top frames to — exceeds this, or when the
  /// length of the first three as a vector does (WebKit's classifier: 3).
  public var prevalenceThreshold = 3
  /// …and very prevalent when that vector's length exceeds this (30).
  public var veryPrevalenceThreshold = 30
  /// How long a user interaction with a site keeps its cookies unblocked
  /// (WebKit's `timeToLiveUserInteraction`: 30 days).
  public var userInteractionWindow: TimeInterval = 30 * 86_400
  /// How many domains the statistics hold before pruning (1000), and how
  /// many pruning keeps (800).
  public var maximumEntries = 1000
  public var entriesKeptAfterPruning = 800
  /// Website data removal: a prevalent domain without user interaction
  /// over the last this many operating days — days the store was used —
  /// has its data removed (30).
  public var operatingDaysWindow = 30
  /// Script-writable storage (web storage) of a site without user
  /// interaction over the last this many operating days is removed, the
  /// site's cookies kept: WebKit's 7-day cap on all script-writable
  /// storage (7).
  public var scriptWritableStorageOperatingDays = 7
  /// How long the data a store held when tracking prevention first saw it
  /// is spared (WebKit's grandfathering: 7 days).
  public var grandfatheringDuration: TimeInterval = 7 * 86_400
  /// The least time between two data removals (one hour).
  public var minimumTimeBetweenDataRemovals: TimeInterval = 3_600
  /// The longest life of a cookie written by a script (`document.cookie`,
  /// the API's script source): WebKit's client-side cookie cap, 7 days.
  public var scriptWrittenCookieLifetime: TimeInterval = 7 * 86_400
  /// …and on a page reached by a cross-site navigation from a prevalent
  /// domain whose URL carries link decoration (a query or a fragment):
  /// WebKit's cap after link decoration, 24 hours.
  public var linkDecorationCookieLifetime: TimeInterval = 86_400
  /// The longest life of a cookie set by a first-party subresource whose
  /// host is an alias (CNAME) of another site, or, when it is no alias,
  /// that is served from outside the top-level page's network (the first 16
  /// bits of an IPv4 address differ, or 64 of an IPv6 one): WebKit's CNAME
  /// and IP address cloaking caps, 7 days.
  public var cloakedCookieLifetime: TimeInterval = 7 * 86_400
  /// The longest a cached response of a prevalent domain stays fresh,
  /// whatever its `max-age` or `Expires`: WebKit's cache max-age cap for
  /// prevalent resources, 7 days.
  public var prevalentResourceCacheLifetime: TimeInterval = 7 * 86_400
  /// WebKit's SameSite=Strict enforcement for redirect trackers, off by
  /// default as in WebKit: a domain that redirected top-level navigations
  /// to at least this many sites (WebKit's threshold: 10) gets its cookies
  /// only with same-site requests, as if they were all `SameSite=Strict`
  /// (``CookieCore/CookieExclusionReason/redirectTrackerStrict``).
  public var strictCookiesAfterTopFrameRedirects: Int?
  /// Bounce tracking (PrivacyCG Navigational-Tracking Mitigations): a site
  /// that held state while it was visited only in the middle of a
  /// redirect chain has its data removed unless the user interacted with
  /// it within this window (45 days, as Chromium and Firefox)…
  public var bounceTrackingInteractionWindow: TimeInterval = 45 * 86_400
  /// …once this grace period after the bounce has passed (one hour).
  public var bounceTrackingGracePeriod: TimeInterval = 3_600
  /// How long a storage access grant lasts (30 days, as WebKit's).
  public var storageAccessGrantLifetime: TimeInterval = 30 * 86_400

  /// WebKit's defaults, on.
  public static let webKit = TrackingPreventionPolicy()

  /// No tracking prevention: nothing recorded, nothing blocked or removed.
  public static let off: TrackingPreventionPolicy = {
    var policy = webKit
    policy.isEnabled = false
    return policy
  }()

  /// WebKit's defaults.
  public init() {}

  enum CodingKeys: String, CodingKey {
    case isEnabled, prevalenceThreshold, veryPrevalenceThreshold, userInteractionWindow
    case maximumEntries, entriesKeptAfterPruning, operatingDaysWindow, grandfatheringDuration
    case scriptWritableStorageOperatingDays
    case minimumTimeBetweenDataRemovals, scriptWrittenCookieLifetime, linkDecorationCookieLifetime
    case cloakedCookieLifetime, strictCookiesAfterTopFrameRedirects, prevalentResourceCacheLifetime
    case bounceTrackingInteractionWindow, bounceTrackingGracePeriod, storageAccessGrantLifetime
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    func value<T: Decodable>(_ key: CodingKeys, _ fallback: T) throws -> T {
      try container.decodeIfPresent(T.self, forKey: key) ?? fallback
    }
    let defaults = Self.webKit
    isEnabled = try value(.isEnabled, defaults.isEnabled)
    prevalenceThreshold = try value(.prevalenceThreshold, defaults.prevalenceThreshold)
    veryPrevalenceThreshold = try value(.veryPrevalenceThreshold, defaults.veryPrevalenceThreshold)
    userInteractionWindow = try value(.userInteractionWindow, defaults.userInteractionWindow)
    maximumEntries = try value(.maximumEntries, defaults.maximumEntries)
    entriesKeptAfterPruning = min(
      try value(.entriesKeptAfterPruning, defaults.entriesKeptAfterPruning), maximumEntries)
    operatingDaysWindow = try value(.operatingDaysWindow, defaults.operatingDaysWindow)
    grandfatheringDuration = try value(.grandfatheringDuration, defaults.grandfatheringDuration)
    scriptWritableStorageOperatingDays = try value(
      .scriptWritableStorageOperatingDays, defaults.scriptWritableStorageOperatingDays)
    minimumTimeBetweenDataRemovals = try value(
      .minimumTimeBetweenDataRemovals, defaults.minimumTimeBetweenDataRemovals)
    scriptWrittenCookieLifetime = try value(
      .scriptWrittenCookieLifetime, defaults.scriptWrittenCookieLifetime)
    linkDecorationCookieLifetime = try value(
      .linkDecorationCookieLifetime, defaults.linkDecorationCookieLifetime)
    cloakedCookieLifetime = try value(.cloakedCookieLifetime, defaults.cloakedCookieLifetime)
    prevalentResourceCacheLifetime = try value(
      .prevalentResourceCacheLifetime, defaults.prevalentResourceCacheLifetime)
    strictCookiesAfterTopFrameRedirects = try container.decodeIfPresent(
      Int.self, forKey: .strictCookiesAfterTopFrameRedirects)
    bounceTrackingInteractionWindow = try value(
      .bounceTrackingInteractionWindow, defaults.bounceTrackingInteractionWindow)
    bounceTrackingGracePeriod = try value(
      .bounceTrackingGracePeriod, defaults.bounceTrackingGracePeriod)
    storageAccessGrantLifetime = try value(
      .storageAccessGrantLifetime, defaults.storageAccessGrantLifetime)
  }
}
