// Stand-ins for the few UIKit and SwiftUI names the seeds' README samples use, so that those samples compile as
// written on Linux (where neither framework exists) and their buttons, rows and tasks can be driven by a test.
// They model nothing else: each type has only the members the samples call. The docs in Docs/ComingFrom*.md name
// them as "the test's stand-in". They are used on every platform, so the tests behave the same everywhere.
import Foundation

// MARK: - UIKit

/// An image made from PNG bytes, or nothing: `UIImage(data:)` as TinyNetworking's custom-parsing sample uses it.
struct UIImage: Sendable {
    static let pngSignature = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    let data: Data

    init?(data: Data) {
        guard data.starts(with: Self.pngSignature) else { return nil }
        self.data = data
    }
}

/// A label: its text.
@MainActor final class UILabel {
    var text: String?
}

/// A cell with a text label.
@MainActor class UITableViewCell {
    var textLabel: UILabel? = UILabel()
    required init() {}
}

/// A table that asks its controller for rows when it reloads, and keeps the cells it made.
@MainActor final class UITableView {
    weak var dataSource: UITableViewController?
    private var cellTypes: [String: UITableViewCell.Type] = [:]
    /// The cells of section 0 after the last `reloadData()`.
    private(set) var visibleCells: [UITableViewCell] = []
    private(set) var reloadCount = 0

    func register(_ cellClass: UITableViewCell.Type?, forCellReuseIdentifier identifier: String) {
        cellTypes[identifier] = cellClass
    }

    func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) -> UITableViewCell {
        (cellTypes[identifier] ?? UITableViewCell.self).init()
    }

    func reloadData() {
        reloadCount += 1
        let rows = dataSource.map { $0.tableView(self, numberOfRowsInSection: 0) } ?? 0
        visibleCells = (0..<rows).compactMap { row in
            dataSource?.tableView(self, cellForRowAt: IndexPath(row: row, section: 0))
        }
    }
}

/// A navigation item: its title.
@MainActor final class UINavigationItem {
    var title: String?
}

/// A table view controller: a table whose data source it is, a navigation item, and `viewDidLoad()`.
@MainActor class UITableViewController {
    let tableView = UITableView()
    let navigationItem = UINavigationItem()

    init() { tableView.dataSource = self }

    func viewDidLoad() {}

    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 0 }

    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        UITableViewCell()
    }
}

extension IndexPath {
    /// UIKit's row and section spelling of an index path.
    init(row: Int, section: Int) { self.init(indexes: [section, row]) }
    /// The row: the path's second index.
    var row: Int { self[1] }
}

// MARK: - SwiftUI

/// What a test can see of a rendered view: texts, buttons, rows that react to taps, and `.task` work.
enum Rendered {
    case text(String)
    case button(String, action: @MainActor () -> Void)
    case progress(String?)
    case tappable([Rendered], action: @MainActor () -> Void)
    case task(@MainActor () async -> Void)

    /// This element and those inside it, depth first.
    var flattened: [Rendered] {
        if case .tappable(let content, _) = self { return [self] + content.flatMap(\.flattened) }
        return [self]
    }
}

/// A view: SwiftUI's protocol, as far as the samples use it.
@MainActor protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
}

/// A view that renders itself instead of having a body.
@MainActor protocol PrimitiveView: View where Body == Never {
    func render() -> [Rendered]
}

extension PrimitiveView {
    var body: Never { return fatalError("\(Self.self) has no body") }
}

extension Never: View {
    typealias Body = Never
    var body: Never { return fatalError("Never has no body") }
}

/// Renders a view: its primitives, with environment objects resolved and `@State` kept.
@MainActor func render(_ view: some View) -> [Rendered] {
    if let primitive = view as? any PrimitiveView { return primitive.render() }
    for child in Mirror(reflecting: view).children {
        (child.value as? any EnvironmentResolving)?.resolve(from: environmentObjects)
    }
    return render(view.body)
}

/// The objects `.environment(_:)` put in place for the views being rendered.
@MainActor private var environmentObjects: [ObjectIdentifier: AnyObject] = [:]

/// Any number of views, rendered lazily, in order: every `@ViewBuilder` block makes one.
struct ViewGroup: PrimitiveView {
    let parts: [@MainActor () -> [Rendered]]
    func render() -> [Rendered] { parts.flatMap { $0() } }
}

@resultBuilder @MainActor enum ViewBuilder {
    static func buildExpression(_ view: some View) -> ViewGroup {
        ViewGroup(parts: [{ TinyKitIntegrationTests.render(view) }])
    }
    static func buildBlock(_ parts: ViewGroup...) -> ViewGroup { ViewGroup(parts: parts.flatMap(\.parts)) }
    static func buildOptional(_ part: ViewGroup?) -> ViewGroup { part ?? ViewGroup(parts: []) }
    static func buildEither(first: ViewGroup) -> ViewGroup { first }
    static func buildEither(second: ViewGroup) -> ViewGroup { second }
}

struct Text: PrimitiveView {
    let content: String
    init(_ content: String) { self.content = content }
    func render() -> [Rendered] { [.text(content)] }
}

struct Button: PrimitiveView {
    let title: String
    let action: @MainActor () -> Void
    init(_ title: String, action: @escaping @MainActor () -> Void) {
        self.title = title
        self.action = action
    }
    func render() -> [Rendered] { [.button(title, action: action)] }
}

struct ProgressView: PrimitiveView {
    let title: String?
    init(_ title: String? = nil) { self.title = title }
    func render() -> [Rendered] { [.progress(title)] }
}

enum HorizontalAlignment { case leading, center }

struct VStack: PrimitiveView {
    let content: ViewGroup
    init(alignment: HorizontalAlignment = .center, @ViewBuilder content: () -> ViewGroup) { self.content = content() }
    func render() -> [Rendered] { content.render() }
}

struct HStack: PrimitiveView {
    let content: ViewGroup
    init(@ViewBuilder content: () -> ViewGroup) { self.content = content() }
    func render() -> [Rendered] { content.render() }
}

struct NavigationView: PrimitiveView {
    let content: ViewGroup
    init(@ViewBuilder content: () -> ViewGroup) { self.content = content() }
    func render() -> [Rendered] { content.render() }
}

/// A list: one row per element.
struct List: PrimitiveView {
    let rows: [ViewGroup]
    init<Data: RandomAccessCollection, ID: Hashable>(
        _ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder rowContent: (Data.Element) -> ViewGroup
    ) {
        rows = data.map(rowContent)
    }
    init<Data: RandomAccessCollection>(_ data: Data, @ViewBuilder rowContent: (Data.Element) -> ViewGroup)
    where Data.Element: Identifiable {
        rows = data.map(rowContent)
    }
    func render() -> [Rendered] { rows.flatMap { $0.render() } }
}

struct Font { static let headline = Font(), caption = Font() }
struct Color { static let secondary = Color(), red = Color() }

/// A view with something added around it.
struct Modified: PrimitiveView {
    let rendering: @MainActor () -> [Rendered]
    func render() -> [Rendered] { rendering() }
}

extension View {
    func font(_ font: Font) -> some View { self }
    func foregroundColor(_ color: Color) -> some View { self }
    func navigationTitle(_ title: String) -> some View { Modified { [.text(title)] + render(self) } }
    func toolbar(@ViewBuilder content: () -> ViewGroup) -> some View {
        let toolbar = content()
        return Modified { render(self) + toolbar.render() }
    }
    func onTapGesture(perform action: @escaping @MainActor () -> Void) -> some View {
        Modified { [.tappable(render(self), action: action)] }
    }
    func task(_ action: @escaping @MainActor () async -> Void) -> some View {
        Modified { render(self) + [.task(action)] }
    }
    func environment<T: AnyObject>(_ object: T) -> some View {
        Modified {
            let saved = environmentObjects
            environmentObjects[ObjectIdentifier(T.self)] = object
            defer { environmentObjects = saved }
            return render(self)
        }
    }
}

/// Something a view holds that is filled in from the environment when the view is rendered.
@MainActor protocol EnvironmentResolving {
    func resolve(from objects: [ObjectIdentifier: AnyObject])
}

/// `@Environment(ItemsStore.self)`: the object of that type that `.environment(_:)` put in place.
@MainActor @propertyWrapper struct Environment<Value: AnyObject>: EnvironmentResolving {
    private final class Box { var value: Value? }
    private let box = Box()

    init(_ type: Value.Type) {}

    var wrappedValue: Value {
        guard let value = box.value else { fatalError("no \(Value.self) in the environment") }
        return value
    }

    func resolve(from objects: [ObjectIdentifier: AnyObject]) {
        box.value = objects[ObjectIdentifier(Value.self)] as? Value
    }
}

/// `@State`: a value kept across renders.
@MainActor @propertyWrapper struct State<Value> {
    private final class Box {
        var value: Value
        init(_ value: Value) { self.value = value }
    }
    private let box: Box

    init(wrappedValue: Value) { box = Box(wrappedValue) }

    var wrappedValue: Value {
        get { box.value }
        nonmutating set { box.value = newValue }
    }
}

/// A scene: the views of a window.
@MainActor protocol Scene {
    var content: [Rendered] { get }
}

struct WindowGroup: Scene {
    let content: [Rendered]
    init(@ViewBuilder content: () -> ViewGroup) { self.content = content().render() }
}

@resultBuilder @MainActor enum SceneBuilder {
    static func buildBlock<S: Scene>(_ scene: S) -> S { scene }
}

/// An app: a scene.
@MainActor protocol App {
    associatedtype Body: Scene
    @SceneBuilder var body: Body { get }
    init()
}

// MARK: - Reading a rendered view

extension Array where Element == Rendered {
    /// Every text, depth first.
    var texts: [String] {
        flatMap(\.flattened).compactMap { if case .text(let text) = $0 { text } else { nil } }
    }

    /// The titles of progress indicators (`""` for one without a title).
    var progressViews: [String] {
        flatMap(\.flattened).compactMap { if case .progress(let title) = $0 { title ?? "" } else { nil } }
    }

    /// Taps the button titled `title`; returns whether there was one.
    @MainActor @discardableResult func tapButton(_ title: String) -> Bool {
        for case .button(title, let action) in flatMap(\.flattened) {
            action()
            return true
        }
        return false
    }

    /// Taps the first tappable element showing `text`; returns whether there was one.
    @MainActor @discardableResult func tap(showing text: String) -> Bool {
        for case .tappable(let content, let action) in flatMap(\.flattened) where content.texts.contains(text) {
            action()
            return true
        }
        return false
    }

    /// Runs the views' `.task` work, in order, to its end.
    @MainActor func runTasks() async {
        for case .task(let action) in flatMap(\.flattened) { await action() }
    }
}
