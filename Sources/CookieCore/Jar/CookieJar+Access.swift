extension CookieJar {
  /// What `context` may do with cookies for `operation`: the one place the
  /// jar's policies are consulted, once per request or response. The
  /// configuration's ``CookieJarConfiguration/thirdPartyPolicy`` decides
  /// first; each of ``additionalAccessPolicies`` can only restrict further.
  public func access(
    for context: CookieRequestContext, sites: ContextSites, operation: CookieOperation
  ) -> CookieAccess {
    var access = configuration.thirdPartyPolicy.access(
      for: context, sites: sites, operation: operation)
    for policy in additionalAccessPolicies {
      access = access.restricted(
        by: policy.access(for: context, sites: sites, operation: operation))
    }
    return access
  }
}
