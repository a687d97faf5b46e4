@_exported import Patchbay
