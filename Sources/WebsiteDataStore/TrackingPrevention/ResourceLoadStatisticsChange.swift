/// One change of a store's tracking-prevention statistics, as observers see it.
public enum ResourceLoadStatisticsChange: Sendable, Hashable {
  /// A domain's statistics, as they now are (made or updated).
  case updated(ResourceLoadStatistics)
  /// A domain's statistics were removed (data removal, pruning).
  case removed(domain: String)
}

extension ResourceLoadStatisticsTable: StoreState {
  package mutating func apply(removals: [String], records: [ResourceLoadStatistics])
    -> [ResourceLoadStatisticsChange]
  {
    let removed = removeAll(domains: Set(removals))
    return removed.map { .removed(domain: $0) }
      + records.map { record in
        replace(record)
        return .updated(record)
      }
  }

  package mutating func replaceStored(
    with records: [ResourceLoadStatistics], memoryOnlyRecordsArePersisted: Bool
  ) -> [ResourceLoadStatisticsChange] {
    let removed = removeAll()
    return removed.map { .removed(domain: $0) }
      + records.map { record in
        replace(record)
        return .updated(record)
      }
  }
}
