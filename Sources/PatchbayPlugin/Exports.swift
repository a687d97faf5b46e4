@_exported import Patchbay
@_exported import PatchbayEncoding
