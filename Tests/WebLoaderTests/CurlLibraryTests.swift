import Testing

@testable import WebLoader

/// The libcurl the process loaded has what the loader relies on.
@Suite struct CurlLibraryTests {
  @Test func initialisesAndHasTLSAndHSTS() throws {
    try CurlLibrary.initialize()
    #expect(CurlLibrary.features.contains(.ssl))
    #expect(CurlLibrary.features.contains(.hsts))
    #expect(!CurlLibrary.version.isEmpty)
  }
}
