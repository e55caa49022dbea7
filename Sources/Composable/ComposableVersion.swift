import OrderedCollections
import Clocks
import CustomDump
public enum ComposableVersion { public static let name = "Composable" }
