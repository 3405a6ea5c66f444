// The indicator components (ActivityIndicator, NetworkActivityIndicatorManager,
// ErrorTracker, ActivityIndicatorButton) live in this module.
@_exported import Tick
