// The navigation an app's changes and commands speak of (NavigationAction, NavigationState)
// comes with the host.
@_exported import PatchbayRouting
