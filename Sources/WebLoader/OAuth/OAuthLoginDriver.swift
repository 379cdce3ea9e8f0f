/// How a ``WebAuthenticationSession`` gets through the provider's own login
/// and consent pages: a field map that fills and submits their forms (with
/// a ``OAuthLoginPrompting`` prompter for what it lacks), or the caller's
/// own code at each step.
public struct OAuthLoginDriver: Sendable {
  enum Kind: Sendable {
    case fields([String: HTMLFormValue], (any OAuthLoginPrompting)?)
    case custom(@MainActor @Sendable (WebPage) async throws -> Void)
  }

  let kind: Kind

  /// Fills each page's form from `values` (field name → value; passwords
  /// as ``HTMLFormValue/secret(_:)``) and submits it. A value under a
  /// submit button's name chooses that button (`["allow": "Authorize"]`
  /// on a consent page); a form with a single button uses it. What the map
  /// lacks — a required or password field, a choice between several
  /// buttons — is asked of `prompter`, or ends the flow with
  /// ``OAuthError/Code/loginDidNotComplete``.
  ///
  /// A form that comes back after it was submitted (the login page with
  /// "wrong password") is not submitted twice: the flow ends there.
  public static func fields(
    _ values: [String: HTMLFormValue], prompter: (any OAuthLoginPrompting)? = nil
  ) -> OAuthLoginDriver {
    OAuthLoginDriver(kind: .fields(values, prompter))
  }

  /// Calls `step` with the page at each step that is not the redirect
  /// URI; it navigates (``WebPage/submit(_:using:)``, ``WebPage/load(_:)-(URL)``)
  /// and awaits that navigation. A step that does not navigate, or that
  /// throws, ends the flow with ``OAuthError/Code/loginDidNotComplete``.
  public static func custom(_ step: @escaping @MainActor @Sendable (WebPage) async throws -> Void)
    -> OAuthLoginDriver
  {
    OAuthLoginDriver(kind: .custom(step))
  }
}

/// Asks a person for what a field map does not give (the `sitedata oauth
/// login` prompts on a terminal).
@MainActor public protocol OAuthLoginPrompting: Sendable {
  /// A value for `field` of `form`, or nil to give up.
  func value(for field: HTMLFormControl, in form: HTMLForm, on page: WebPage) async
    -> HTMLFormValue?
  /// One of `buttons` (a form's submit buttons, two or more), or nil to
  /// give up.
  func button(among buttons: [HTMLFormControl], in form: HTMLForm, on page: WebPage) async
    -> HTMLFormControl?
}
