extension CookieJar {
  /// What `context` may do with cookies for `operation`: the one place the
  /// jar's policies are consulted, once per request or response. The
  /// configuration's ``CookieJarConfiguration/thirdPartyPolicy`` decides
  /// first — unless, in a third-party context, one of
  /// ``additionalAccessPolicies`` exempts the request (a storage access
  /// grant): then its block of unpartitioned cookies (`third-party-blocked`,
  /// not `block-all`) is lifted; each of ``additionalAccessPolicies`` can
  /// only restrict further.
  public func access(
    for context: CookieRequestContext, sites: ContextSites, operation: CookieOperation
  ) -> CookieAccess {
    var access = configuration.thirdPartyPolicy.access(
      for: context, sites: sites, operation: operation)
    if sites.isThirdParty,
      let exemption = additionalAccessPolicies.lazy.compactMap({
        $0.exemption(for: context, sites: sites, operation: operation)
      }).first
    {
      if access.unpartitionedExclusion == .thirdPartyBlocked { access.unpartitionedExclusion = nil }
      access.partitionsUnpartitionedWrites = false
      access.exemption = exemption
    }
    for policy in additionalAccessPolicies {
      access = access.restricted(
        by: policy.access(for: context, sites: sites, operation: operation))
    }
    return access
  }
}
