/// One change an ``HSTSEntryTable`` made, for persistence to write.
enum HSTSChange: Hashable, Sendable {
  /// The entry was added or replaced.
  case stored(HSTSEntry)
  /// The entry was removed (expired, `max-age=0`, or deleted).
  case removed(HSTSEntry)
}
