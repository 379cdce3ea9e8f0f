import Foundation

// `sitedata-bench`: the engine's side of the peer benchmarks in
// `../shared/bench` (README, "Adding an engine"). One sub-command per
// workload; each prints one `RESULT websitedata ...` line on stdout.

let usage = """
  Usage: sitedata-bench w1 W1_TSV
         sitedata-bench w2 JAR_TSV URLS EXPECTED_TSV LIMIT SIZE
         sitedata-bench w3 W3_TSV EXPECTED_TXT
         sitedata-bench w4save W4_TSV OUT
         sitedata-bench w4load OUT
         sitedata-bench w5 BASE_URL N
         sitedata-bench w5par BASE_URL N INFLIGHT
         sitedata-bench import N OUT
         sitedata-bench fleet STORE N SECONDS
         sitedata-bench crawl BASE_URL N ROUNDS cache|nocache
         sitedata-bench crawlhit BASE_URL N ROUNDS
  """

/// Each sub-command: its argument count and its workload.
let commands: [String: (arguments: Int, run: ([String]) async -> Void)] = [
  "w1": (1, W1Parse.run),
  "w2": (5, W2Lookup.run),
  "w3": (2, W3Ingest.run),
  "w4save": (2, W4Persist.save),
  "w4load": (1, W4Persist.load),
  "w5": (2, W5Load.run),
  "w5par": (3, W5Load.runParallel),
  "import": (2, ImportScale.run),
  "fleet": (3, Fleet.run),
  "fleet-client": (4, Fleet.client),
  "crawl": (4, CacheCrawl.run),
  "crawlhit": (3, CacheCrawl.runHits),
]

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first else {
  Bench.note("Error: missing sub-command\n" + usage)
  exit(64)
}
if name == "help" || name == "--help" || name == "-h" {
  print(usage)
  exit(0)
}
guard let command = commands[name] else {
  Bench.note("Error: unknown sub-command '\(name)'\n" + usage)
  exit(64)
}
guard arguments.count - 1 == command.arguments else {
  Bench.note("Error: '\(name)' takes \(command.arguments) argument(s)\n" + usage)
  exit(64)
}
await command.run(Array(arguments.dropFirst()))
// As `sitedata` does: output flushed, then `_exit(2)`, so that no library's
// exit handler runs while a store's threads finish their deinitialisers.
fflush(nil)
_exit(0)
