import Foundation

extension WebPage {
  /// The page's session history (WebKit's `WebPage.BackForwardList`): the
  /// committed documents, the current one, and those it can go forward to.
  ///
  /// A value: the page replaces it when a navigation commits.
  public struct BackForwardList: Equatable, Sendable {
    /// One committed document.
    public struct Item: Equatable, Identifiable, Sendable {
      /// The item's identity.
      public struct ID: Hashable, Sendable {
        private let rawValue = UUID()
      }

      public let id: ID
      /// The document's title when it was committed.
      public let title: String?
      /// The document's URL, after redirects.
      public let url: URL
      /// The URL the navigation asked for, before redirects.
      public let initialURL: URL
      /// How to load the document again.
      let source: NavigationSource

      init(title: String?, url: URL, initialURL: URL, source: NavigationSource) {
        self.init(id: ID(), title: title, url: url, initialURL: initialURL, source: source)
      }

      private init(id: ID, title: String?, url: URL, initialURL: URL, source: NavigationSource) {
        self.id = id
        self.title = title
        self.url = url
        self.initialURL = initialURL
        self.source = source
      }

      /// The same entry, showing the document that loaded for it now.
      func updated(title: String?, url: URL) -> Item {
        Item(id: id, title: title, url: url, initialURL: initialURL, source: source)
      }

      public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }
    }

    /// Every item, oldest first.
    private(set) var items: [Item] = []
    /// The index of the current item in ``items``.
    private(set) var currentIndex: Int?

    /// The items before the current one, oldest first.
    public var backList: [Item] {
      guard let currentIndex else { return [] }
      return Array(items[..<currentIndex])
    }

    /// The current document's item.
    public var currentItem: Item? { currentIndex.map { items[$0] } }

    /// The items after the current one, nearest first.
    public var forwardList: [Item] {
      guard let currentIndex else { return [] }
      return Array(items[(currentIndex + 1)...])
    }

    /// The item `offset` steps from the current one (negative: back); nil
    /// beyond either end.
    public subscript(offset: Int) -> Item? {
      guard let currentIndex, items.indices.contains(currentIndex + offset) else { return nil }
      return items[currentIndex + offset]
    }

    /// The item just before the current one.
    public var backItem: Item? { self[-1] }
    /// The item just after the current one.
    public var forwardItem: Item? { self[1] }

    /// A new document after the current one; the forward list is dropped.
    mutating func push(_ item: Item) {
      if let currentIndex { items.removeSubrange((currentIndex + 1)...) }
      items.append(item)
      currentIndex = items.count - 1
    }

    /// A new document in place of the current one (a refresh's history
    /// handling, "replace"); the first entry when there is none.
    mutating func replaceCurrent(_ item: Item) {
      guard let currentIndex else { return push(item) }
      items[currentIndex] = item
    }

    /// Makes the entry `id` current, showing the document that loaded for
    /// it now (a reload or a back/forward move). False when `id` is no
    /// longer in the list (a newer navigation dropped it).
    mutating func move(to id: Item.ID, title: String?, url: URL) -> Bool {
      guard let index = items.firstIndex(where: { $0.id == id }) else { return false }
      items[index] = items[index].updated(title: title, url: url)
      currentIndex = index
      return true
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
      lhs.items == rhs.items && lhs.currentIndex == rhs.currentIndex
    }
  }
}
