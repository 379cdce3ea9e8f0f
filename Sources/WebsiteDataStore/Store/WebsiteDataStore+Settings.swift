import CookieCore
import Foundation

/// Settings a persistent store keeps with its data, sealed like its records
/// (``StoreFile/setting(named:)``): today the third-party cookie policy.
extension WebsiteDataStore {
  /// The name of the third-party policy setting; its value is the policy's
  /// raw value (``ThirdPartyCookiePolicy/rawValue``).
  static let thirdPartyPolicySetting = "third-party-policy"

  /// Sets the third-party cookie policy of the store's cookies
  /// (``HTTPCookieStore/setThirdPartyPolicy(_:)``) and, for a persistent
  /// store, saves it with the store: every later open of the store, by any
  /// process, applies it over the `configuration` it is opened with. Other
  /// processes that have the store open keep theirs until they reopen it.
  /// A non-persistent store saves nothing.
  ///
  /// - Throws: the store's error when the setting cannot be committed (the
  ///   policy is then unchanged).
  public func saveThirdPartyPolicy(_ policy: ThirdPartyCookiePolicy) async throws {
    try await persistentFile?.file.saveSetting(
      Array(policy.rawValue.utf8), named: Self.thirdPartyPolicySetting)
    await httpCookieStore.setThirdPartyPolicy(policy)
  }

  /// The third-party policy saved with the store; `nil` when none is (a
  /// non-persistent store, a store whose policy was never saved, or a
  /// setting that does not open under the store's key: an edited file).
  public func savedThirdPartyPolicy() async throws -> ThirdPartyCookiePolicy? {
    guard let file = persistentFile?.file else { return nil }
    return try await Self.savedThirdPartyPolicy(in: file)
  }

  /// The policy saved in `file`, if any is and it is one this version knows.
  static func savedThirdPartyPolicy(in file: any StoreFile) async throws
    -> ThirdPartyCookiePolicy?
  {
    try await file.setting(named: thirdPartyPolicySetting).flatMap {
      ThirdPartyCookiePolicy(rawValue: String(decoding: $0, as: UTF8.self))
    }
  }

  /// The name of the tracking-prevention policy setting; its value is the
  /// policy as JSON.
  static let trackingPreventionPolicySetting = "tracking-prevention-policy"

  /// Sets the store's tracking-prevention policy
  /// (``ResourceLoadStatisticsStore/setPolicy(_:)``) and, for a persistent
  /// store, saves it with the store, as ``saveThirdPartyPolicy(_:)`` does.
  public func saveTrackingPreventionPolicy(_ policy: TrackingPreventionPolicy) async throws {
    try await persistentFile?.file.saveSetting(
      Array(try JSONEncoder().encode(policy)), named: Self.trackingPreventionPolicySetting)
    await resourceLoadStatistics.setPolicy(policy)
  }

  /// The tracking-prevention policy saved with the store; `nil` when none
  /// is (or it does not open or decode).
  public func savedTrackingPreventionPolicy() async throws -> TrackingPreventionPolicy? {
    guard let file = persistentFile?.file else { return nil }
    return try await Self.savedTrackingPreventionPolicy(in: file)
  }

  static func savedTrackingPreventionPolicy(in file: any StoreFile) async throws
    -> TrackingPreventionPolicy?
  {
    try await file.setting(named: trackingPreventionPolicySetting).flatMap {
      try? JSONDecoder().decode(TrackingPreventionPolicy.self, from: Data($0))
    }
  }
}
