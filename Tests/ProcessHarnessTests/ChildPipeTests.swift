import Glibc
import ProcessHarness
import Testing

/// Pipes to and from a child.
@Suite(.hangGuard) struct ChildPipeTests {
  @Test func bytesRoundTripThroughCat() async throws {
    let input = try ChildPipe()
    let output = try ChildPipe()
    let child = try ChildProcess("cat", stdin: .pipe(input), stdout: .pipe(output))
    // Less than a pipe holds, so writing all first cannot block.
    let bytes = (0..<4096).map { UInt8(truncatingIfNeeded: $0) }
    try input.write(bytes)
    input.closeWriteEnd()
    #expect(try output.readToEnd() == bytes)
    #expect(try await child.wait() == .exited(0))
  }

  @Test func linesAreReadOneAtATime() async throws {
    let output = try ChildPipe()
    let child = try ChildProcess(
      "/bin/sh", arguments: ["-c", "printf 'port 80\\nsecond\\nlast'"], stdout: .pipe(output))
    #expect(try output.readLine() == Array("port 80".utf8))
    #expect(try output.readLine() == Array("second".utf8))
    #expect(try output.readLine() == Array("last".utf8))
    #expect(try output.readLine() == nil)
    #expect(try await child.wait() == .exited(0))
  }

  @Test func aClosedEndCannotBeGivenToAChild() throws {
    let pipe = try ChildPipe()
    pipe.closeReadEnd()
    let error = try #require(throws: HarnessError.self) {
      try ChildProcess("/bin/true", stdin: .pipe(pipe))
    }
    #expect(error.code == .spawn)
    #expect(error.errno == EBADF)
  }
}
