/// How a persistent store's settings are sealed, in every engine: each
/// value with AES-256-GCM under the store's data key, bound to its name
/// (associated data `"websitedata setting v1" 0x00 name`), and kept in
/// `store_meta` under `setting:<name>` (``metaKey(_:)``).
enum StoreSettingSeal {
  private static let label = Array("websitedata setting v1\0".utf8)

  /// The `store_meta` key of setting `name`.
  static func metaKey(_ name: String) -> String { "setting:" + name }

  private static func associatedData(_ name: String) -> [UInt8] { label + Array(name.utf8) }

  /// `value` sealed for setting `name`.
  static func seal(_ value: [UInt8], named name: String, codec: SealedRowCodec) throws -> [UInt8] {
    try codec.cipher.seal(value, associatedData: associatedData(name))
  }

  /// The value of setting `name`; `nil` when `sealed` does not open under
  /// `codec` as that setting (edited, moved from another name, other key).
  static func open(_ sealed: [UInt8], named name: String, codec: SealedRowCodec) -> [UInt8]? {
    try? codec.cipher.open(sealed, associatedData: associatedData(name))
  }
}
