import Foundation
import Testing

@testable import WebsiteDataStore

/// ``KeyFile``: creation with safe modes, refusal of unsafe or malformed
/// files, location checks.
@Suite struct CryptoKeyFileTests {
  @Test func createsA0600FileInA0700Folder() throws {
    try CryptoTestSupport.withTemporaryFolder { folder in
      let path = folder + "/config/websitedata/store.key"
      let key = try KeyFile.loadOrCreate(at: path)
      #expect(key.count == 32)
      #expect(try CryptoTestSupport.mode(path) == 0o600)
      #expect(try CryptoTestSupport.mode(folder + "/config/websitedata") == 0o700)
      #expect(try CryptoTestSupport.mode(folder + "/config") == 0o700)
      let onDisk = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
      #expect(onDisk == CryptoTestSupport.contents(key))
      // No temporary file is left behind.
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder + "/config/websitedata") == [
          "store.key"
        ])
      // Later calls read the same key.
      #expect(try KeyFile.loadOrCreate(at: path) == key)
      #expect(try KeyFile.load(at: path) == key)
    }
  }

  @Test func anExistingParentFolderKeepsItsMode() throws {
    try CryptoTestSupport.withTemporaryFolder { folder in
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
      let key = try KeyFile.loadOrCreate(at: folder + "/store.key")
      #expect(key.count == 32)
      #expect(try CryptoTestSupport.mode(folder) == 0o755)
      #expect(try CryptoTestSupport.mode(folder + "/store.key") == 0o600)
    }
  }

  @Test func loadDoesNotCreate() throws {
    try CryptoTestSupport.withTemporaryFolder { folder in
      let path = folder + "/missing/store.key"
      #expect(CryptoTestSupport.code { _ = try KeyFile.load(at: path) } == .notFound)
      #expect(!FileManager.default.fileExists(atPath: folder + "/missing"))
    }
  }

  @Test(arguments: [0o644, 0o640, 0o604, 0o620, 0o602, 0o660, 0o666, 0o700 | 0o044])
  func permissiveModesAreRefused(mode: Int) throws {
    try CryptoTestSupport.withTemporaryFolder { folder in
      let path = folder + "/store.key"
      try CryptoTestSupport.write([UInt8](repeating: 7, count: 32), to: path, mode: mode)
      do {
        _ = try KeyFile.load(at: path)
        Issue.record("mode \(String(mode, radix: 8)) accepted")
      } catch let error as WebsiteDataStoreError {
        #expect(error.code == .insecureKeyFile)
        #expect(error.message.contains("chmod 600"))
        #expect(error.message.contains(path))
        #expect(error.message.contains(String(mode, radix: 8)))
      }
      #expect(CryptoTestSupport.code { _ = try KeyFile.loadOrCreate(at: path) } == .insecureKeyFile)
      // The refused file is left as it was.
      #expect(try CryptoTestSupport.mode(path) == mode)
    }
  }

  @Test(arguments: [0o600, 0o400])
  func ownerOnlyModesAreAccepted(mode: Int) throws {
    try CryptoTestSupport.withTemporaryFolder { folder in
      let path = folder + "/store.key"
      let bytes = [UInt8](repeating: 9, count: 32)
      try CryptoTestSupport.write(bytes, to: path, mode: mode)
      #expect(CryptoTestSupport.contents(try KeyFile.load(at: path)) == bytes)
    }
  }

  @Test(arguments: [0, 1, 31, 33, 64])
  func wrongSizesAreRefused(count: Int) throws {
    try CryptoTestSupport.withTemporaryFolder { folder in
      let path = folder + "/store.key"
      try CryptoTestSupport.write([UInt8](repeating: 3, count: count), to: path, mode: 0o600)
      #expect(CryptoTestSupport.code { _ = try KeyFile.load(at: path) } == .invalidArgument)
      // loadOrCreate never replaces an existing file.
      #expect(CryptoTestSupport.code { _ = try KeyFile.loadOrCreate(at: path) } == .invalidArgument)
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == count)
    }
  }

  @Test func foldersAndFIFOsAreNotKeyFiles() throws {
    try CryptoTestSupport.withTemporaryFolder { folder in
      let path = folder + "/store.key"
      try FileManager.default.createDirectory(
        atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
      #expect(CryptoTestSupport.code { _ = try KeyFile.loadOrCreate(at: path) } == .insecureKeyFile)
      // A FIFO must be refused, not waited on.
      let fifo = folder + "/fifo.key"
      #expect(mkfifo(fifo, 0o600) == 0)
      #expect(CryptoTestSupport.code { _ = try KeyFile.load(at: fifo) } == .insecureKeyFile)
    }
  }

  @Test(arguments: ["", "/tmp/", "a\u{0}b"])
  func invalidPathsAreRefused(path: String) {
    #expect(CryptoTestSupport.code { _ = try KeyFile.loadOrCreate(at: path) } == .invalidArgument)
  }

  @Test func concurrentCreatorsAgreeOnOneKey() async throws {
    let folder = try CryptoTestSupport.withTemporaryFolder { $0 + "-race" }
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/store.key"
    let keys = try await withThrowingTaskGroup(of: SecretBytes.self) { group in
      for _ in 0..<8 {
        group.addTask { try KeyFile.loadOrCreate(at: path) }
      }
      var keys: [SecretBytes] = []
      for try await key in group { keys.append(key) }
      return keys
    }
    #expect(keys.count == 8)
    #expect(keys.allSatisfy { $0 == keys[0] })
    #expect(try KeyFile.load(at: path) == keys[0])
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["store.key"])
  }

  @Test func theKeyFileMustLiveOutsideTheStoreFolder() throws {
    try CryptoTestSupport.withTemporaryFolder { folder in
      let store = folder + "/store"
      try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: false)
      for inside in [store + "/key", store + "/sub/key", folder + "/other/../store/key", store] {
        #expect(
          CryptoTestSupport.code { try KeyFile.requireOutside(inside, dataFolder: store) }
            == .invalidArgument, "\(inside)")
      }
      for outside in [folder + "/key", folder + "/store-keys/key", folder + "/store.key"] {
        try KeyFile.requireOutside(outside, dataFolder: store)
      }
      // A symbolic link into the store folder is seen through.
      let link = folder + "/link"
      try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: store)
      #expect(
        CryptoTestSupport.code { try KeyFile.requireOutside(link + "/key", dataFolder: store) }
          == .invalidArgument)
    }
  }
}
