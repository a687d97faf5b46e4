// Every command's error (AppError) comes with the host too.
@_exported import PatchbayAppError
// The navigation an app's changes and commands speak of (NavigationAction, NavigationState)
// comes with the host.
@_exported import PatchbayRouting
