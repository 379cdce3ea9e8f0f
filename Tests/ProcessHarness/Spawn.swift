internal import CSpawn
import Glibc

/// One `posix_spawn(3)` call, with its file actions and attributes.
struct Spawn {
  var executable: String
  var arguments: [String]
  var environment: [String: String]?
  var currentDirectory: String?
  /// Each stream and the child's descriptor it becomes (0, 1, 2).
  var streams: [(StandardStream, Int32)]

  /// Starts the child; returns its pid.
  func run() throws(HarnessError) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    try check(posix_spawn_file_actions_init(&actions), "set up")
    defer { posix_spawn_file_actions_destroy(&actions) }
    var attributes = posix_spawnattr_t()
    try check(posix_spawnattr_init(&attributes), "set up")
    defer { posix_spawnattr_destroy(&attributes) }

    // Default actions and an empty mask for every signal: the test process
    // (Swift's runtime, Foundation) ignores SIGPIPE, and an ignored signal
    // stays ignored across exec.
    var noSignals = sigset_t()
    var allSignals = sigset_t()
    sigemptyset(&noSignals)
    sigfillset(&allSignals)
    try check(posix_spawnattr_setsigmask(&attributes, &noSignals), "set the signal mask")
    try check(posix_spawnattr_setsigdefault(&attributes, &allSignals), "reset the signals")
    try check(
      posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)),
      "set the flags")

    for (stream, target) in streams {
      switch stream {
      case .inherit:
        break
      case .null:
        let mode = target == STDIN_FILENO ? O_RDONLY : O_WRONLY
        try check(
          posix_spawn_file_actions_addopen(&actions, target, "/dev/null", mode, 0),
          "open /dev/null for descriptor \(target)")
      case .file(let file):
        try check(
          posix_spawn_file_actions_adddup2(&actions, file.fd, target),
          "give a memory file as descriptor \(target)")
      case .pipe(let pipe):
        let end = target == STDIN_FILENO ? pipe.readEnd : pipe.writeEnd
        try check(
          posix_spawn_file_actions_adddup2(&actions, end, target),
          "give a pipe as descriptor \(target)")
      }
    }
    if let currentDirectory {
      try check(
        posix_spawn_file_actions_addchdir_np(&actions, currentDirectory),
        "change to \(currentDirectory)")
    }
    // Whatever else is open here (descriptors of other tests, without
    // O_CLOEXEC) stays out of the child.
    try check(posix_spawn_file_actions_addclosefrom_np(&actions, 3), "close descriptors")

    let argv = CStringArray([executable] + arguments)
    let envp = environment.map { CStringArray($0.map { "\($0.key)=\($0.value)" }) }
    var pid = pid_t()
    let result = argv.withPointer { argv in
      func spawn(_ envp: UnsafePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        executable.contains("/")
          ? posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
          : posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
      }
      guard let envp else { return spawn(UnsafePointer(environ)) }
      return envp.withPointer { spawn($0) }
    }
    try check(result, "start")
    return pid
  }

  /// Turns a `posix_spawn*` result (0 or an error number) into an error.
  private func check(_ result: Int32, _ doing: String) throws(HarnessError) {
    guard result != 0 else { return }
    let step = doing == "start" ? "" : " (\(doing))"
    throw HarnessError(.spawn, "cannot start \(executable)\(step)", errno: result)
  }
}

/// A NULL-terminated array of C strings (`argv`, `envp`), freed with it.
private final class CStringArray {
  private var pointers: [UnsafeMutablePointer<CChar>?]

  init(_ strings: [String]) {
    pointers = strings.map { strdup($0) } + [nil]
  }

  deinit {
    for pointer in pointers { free(pointer) }
  }

  func withPointer<Result>(
    _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result
  ) -> Result {
    pointers.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { preconditionFailure("never empty") }
      return body(base)
    }
  }
}
