import Foundation
import TinyKitExamplesProgram

// `swift run tinykit-examples --help`
exit(await ExamplesProgram.main(arguments: Array(CommandLine.arguments.dropFirst())))
