// Types from these appear in Composable's API (AnyHashableSendable, clocks), so clients get them too.
@_exported import Clocks
@_exported import ConcurrencyExtras
