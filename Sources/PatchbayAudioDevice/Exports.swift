@_exported import PatchbayRealtime
