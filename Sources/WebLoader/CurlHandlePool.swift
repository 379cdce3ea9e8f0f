/// The idle easy handles of one ``CurlMultiLoop``, reused hop after hop so
/// that a hop costs neither `curl_easy_init` and `curl_easy_cleanup` nor
/// setting the session's common options again.
///
/// Loop thread only (its handles are attached to the loop's share handle).
struct CurlHandlePool {
  /// The most idle handles kept; more are freed when given back.
  let limit: Int
  private var idle: [CurlEasyHandle] = []
  /// How many handles the pool has created.
  private(set) var created = 0

  init(limit: Int) {
    self.limit = limit
  }

  /// A handle for a hop with `options`: the idle one given back last that
  /// holds them already, else the one given back last, else a new handle
  /// attached to `share`.
  ///
  /// - Throws: ``LoadError`` `.curl` when libcurl cannot create a handle.
  mutating func take(for options: TransferOptions, share: UnsafeMutableRawPointer)
    throws(LoadError) -> CurlEasyHandle
  {
    if let index = idle.lastIndex(where: { $0.profile == options.profile && !$0.isDirty }) {
      return idle.remove(at: index)
    }
    if let handle = idle.popLast() { return handle }
    let handle = try CurlEasyHandle(share: share)
    created += 1
    return handle
  }

  /// Keeps `handle` for a later hop, or frees it when the pool is full.
  mutating func giveBack(_ handle: CurlEasyHandle) {
    guard idle.count < limit else { return }
    idle.append(handle)
  }

  /// Frees every idle handle (before the share handle goes).
  mutating func removeAll() {
    idle.removeAll()
  }
}
