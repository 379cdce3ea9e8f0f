import WebsiteDataStore

extension WebPage {
  /// Records that the user interacted with the page (a click, typing into
  /// it: what a headless program decides counts) — WebKit's user
  /// interaction with the top-level site, which tracking prevention needs
  /// before it blocks a site's cookies: for the policy's window (30 days)
  /// the page's site keeps its cookies in third-party contexts even if it is
  /// classified as a tracker. Nothing for a page that is not http(s).
  public func recordUserInteraction() async {
    guard let url, let store = try? await Self.store(for: configuration),
      let record = try? store.url(url), record.scheme == "http" || record.scheme == "https"
    else { return }
    await store.resourceLoadStatistics.recordUserInteraction(with: record)
  }
}
