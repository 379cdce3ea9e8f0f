#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// Dispatch only: everything else lives in the commands (see SiteData.swift).
let status = await SiteData.main(Array(CommandLine.arguments.dropFirst()))
// `_exit(2)`, not `exit(3)`: the stores are closed and every byte of output
// was written with write(2) (``Console``), so nothing is left to flush, and
// `exit(3)` would run the libraries' exit handlers (OpenSSL's cleanup among
// them) while a store's threads may still be finishing deinitialisers that
// use them: a double free, seen under load ("double free or corruption").
fflush(nil)
_exit(status.rawValue)
