@_exported import Tick
