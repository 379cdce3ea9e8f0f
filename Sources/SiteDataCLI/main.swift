#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// Dispatch only: everything else lives in the commands (see SiteData.swift).
let status = await SiteData.main(Array(CommandLine.arguments.dropFirst()))
exit(status.rawValue)
