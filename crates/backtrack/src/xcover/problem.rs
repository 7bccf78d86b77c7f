//! The problem itself: items, options, colors, and the builder that validates them.

use std::collections::HashMap;
use std::fmt;

/// Why a problem was rejected by the [`Builder`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum XcoverError {
    /// An item name is empty.
    EmptyName,
    /// The same item name was declared twice.
    DuplicateItem(String),
    /// An option names an item that was never declared.
    UnknownItem(String),
    /// An option names the same item twice.
    RepeatedItem(String),
    /// An option has no primary item (it could never be useful, and Knuth's rules forbid it).
    NoPrimaryItem,
    /// A color was given to a primary item (colors belong to secondary items only).
    ColorOnPrimary(String),
    /// A color name is empty.
    EmptyColor(String),
    /// The problem declares no primary item at all.
    NoPrimaryItems,
    /// Too many items, options or option entries for 32-bit indices.
    TooLarge,
    /// A primary item's bounds are unusable: the upper one is 0 or below the lower one.
    BadBounds(String, u32, u32),
}

impl fmt::Display for XcoverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            XcoverError::EmptyName => write!(f, "empty item name"),
            XcoverError::DuplicateItem(n) => write!(f, "duplicate item '{n}'"),
            XcoverError::UnknownItem(n) => write!(f, "unknown item '{n}'"),
            XcoverError::RepeatedItem(n) => write!(f, "item '{n}' repeated in the option"),
            XcoverError::NoPrimaryItem => write!(f, "option has no primary item"),
            XcoverError::ColorOnPrimary(n) => write!(f, "color on primary item '{n}'"),
            XcoverError::EmptyColor(n) => write!(f, "empty color on item '{n}'"),
            XcoverError::NoPrimaryItems => write!(f, "no primary items"),
            XcoverError::TooLarge => write!(f, "problem too large"),
            XcoverError::BadBounds(n, lo, hi) if *hi == 0 => {
                write!(f, "item '{n}' may be covered {lo} to {hi} times: the upper bound must be at least 1")
            }
            XcoverError::BadBounds(n, lo, hi) => {
                write!(f, "item '{n}' may be covered {lo} to {hi} times: the lower bound exceeds the upper one")
            }
        }
    }
}

impl std::error::Error for XcoverError {}

/// One entry of an option: an item and, for a secondary item, an optional color.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Entry {
    /// The item's index: primary items are `0..n_primary`, secondary items follow.
    pub item: u32,
    /// 0 for no color, otherwise a color index (see [`Problem::color_name`]).
    pub color: u32,
}

/// An exact cover problem with primary items, secondary items and colors.
///
/// A solution is a set of options that covers every primary item exactly
/// once and every secondary item at most once, except that several options
/// may share a secondary item when they all give it the same color. Build
/// one with [`Problem::builder`] or read one with [`parse`](super::parse).
///
/// A primary item may carry *bounds* (Knuth's multiplicities, as his DLX3 and
/// SSMCC read them): it must then be covered at least `lo` and at most `hi`
/// times instead of exactly once ([`Builder::primary_bounded`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    names: Vec<String>,
    n_primary: usize,
    /// Per primary item: how many chosen options must cover it, at least and at most.
    bounds: Vec<(u32, u32)>,
    colors: Vec<String>,
    option_start: Vec<usize>,
    entries: Vec<Entry>,
    /// Per option: its cost (Knuth's DLX5); empty when no option has one.
    costs: Vec<u64>,
}

impl Problem {
    /// A builder for a new problem.
    pub fn builder() -> Builder {
        Builder::default()
    }
    /// Number of items, primary and secondary.
    pub fn n_items(&self) -> usize {
        self.names.len()
    }
    /// Number of primary items (their indices are `0..n_primary`).
    pub fn n_primary(&self) -> usize {
        self.n_primary
    }
    /// Whether item `item` is primary.
    pub fn is_primary(&self, item: usize) -> bool {
        item < self.n_primary
    }
    /// How many chosen options must cover primary item `item`: at least the
    /// first figure, at most the second; `(1, 1)` unless bounds were given.
    pub fn bounds(&self, item: usize) -> (u32, u32) {
        self.bounds[item]
    }
    /// Whether some primary item has bounds other than `1:1`: the problem is
    /// then one of multiple covers (Knuth's MCC), which only the
    /// [`MccSpace`](super::MccSpace) engine solves.
    pub fn has_multiplicities(&self) -> bool {
        self.bounds.iter().any(|&b| b != (1, 1))
    }
    /// The cost of option `option` (Knuth's DLX5: `|n` tokens on its line); 0 unless one was given.
    pub fn cost(&self, option: usize) -> u64 {
        self.costs.get(option).copied().unwrap_or(0)
    }
    /// Whether some option has a cost other than 0.
    pub fn has_costs(&self) -> bool {
        self.costs.iter().any(|&c| c != 0)
    }
    /// The total cost of `options`.
    pub fn cost_of(&self, options: &[usize]) -> u64 {
        options.iter().map(|&o| self.cost(o)).sum()
    }
    /// This problem with its options in the order `order` gives (`order[k]` is
    /// the option that becomes option `k`); `order` must be a permutation of the options.
    pub(crate) fn reordered(&self, order: &[usize]) -> Problem {
        let mut option_start = vec![0];
        let mut entries = Vec::with_capacity(self.entries.len());
        for &o in order {
            entries.extend_from_slice(self.option(o));
            option_start.push(entries.len());
        }
        let costs = if self.costs.is_empty() { Vec::new() } else { order.iter().map(|&o| self.costs[o]).collect() };
        Problem { option_start, entries, costs, ..self.clone() }
    }
    /// The name of item `item`.
    pub fn item_name(&self, item: usize) -> &str {
        &self.names[item]
    }
    /// The name of color `color` (1-based; 0 means "no color" and has no name).
    pub fn color_name(&self, color: u32) -> Option<&str> {
        (color > 0).then(|| self.colors[color as usize - 1].as_str())
    }
    /// Number of distinct colors used.
    pub fn n_colors(&self) -> usize {
        self.colors.len()
    }
    /// Number of options.
    pub fn n_options(&self) -> usize {
        self.option_start.len() - 1
    }
    /// The entries of option `option`, in the order they were given.
    pub fn option(&self, option: usize) -> &[Entry] {
        &self.entries[self.option_start[option]..self.option_start[option + 1]]
    }
    /// The option written back as text: item names separated by spaces, `name:color` for colored
    /// ones, then `|cost` when the option has a cost other than 0.
    pub fn option_text(&self, option: usize) -> String {
        let mut text = String::new();
        for (k, e) in self.option(option).iter().enumerate() {
            if k > 0 {
                text.push(' ');
            }
            text.push_str(&self.names[e.item as usize]);
            if let Some(c) = self.color_name(e.color) {
                text.push(':');
                text.push_str(c);
            }
        }
        if self.cost(option) != 0 {
            text.push_str(&format!(" |{}", self.cost(option)));
        }
        text
    }
    /// Whether `options` (indices) form a solution: no option twice, every
    /// primary item covered as often as its bounds allow (exactly once without
    /// bounds), every secondary item at most once or always with one color.
    pub fn is_solution(&self, options: &[usize]) -> bool {
        let mut sorted = options.to_vec();
        sorted.sort_unstable();
        if sorted.windows(2).any(|w| w[0] == w[1]) {
            return false;
        }
        // For each item: 0 = untouched, u32::MAX = taken without color, else the color.
        let mut seen = vec![0u32; self.n_items()];
        let mut primary_hits = vec![0u32; self.n_primary];
        for &o in options {
            if o >= self.n_options() {
                return false;
            }
            for e in self.option(o) {
                let i = e.item as usize;
                if i < self.n_primary {
                    primary_hits[i] += 1;
                    continue;
                }
                let mark = if e.color == 0 { u32::MAX } else { e.color };
                if seen[i] != 0 && (seen[i] != mark || mark == u32::MAX) {
                    return false;
                }
                seen[i] = mark;
            }
        }
        primary_hits.iter().zip(&self.bounds).all(|(&h, &(lo, hi))| (lo..=hi).contains(&h))
    }
}

/// The problem in Knuth's format: the item line, then one option per line.
/// Reading it back with [`parse`](super::parse) gives the same problem when
/// every name follows the format's rules (1 to 8 characters, no blanks, `:` or `|`).
/// Bounds are written as the format writes them: `b|name` or `a:b|name`.
impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let primary: Vec<String> = self.names[..self.n_primary]
            .iter()
            .zip(&self.bounds)
            .map(|(name, &(lo, hi))| match (lo, hi) {
                (1, 1) => name.clone(),
                _ if lo == hi => format!("{hi}|{name}"),
                _ => format!("{lo}:{hi}|{name}"),
            })
            .collect();
        f.write_str(&primary.join(" "))?;
        if self.n_primary < self.names.len() {
            write!(f, " | {}", self.names[self.n_primary..].join(" "))?;
        }
        writeln!(f)?;
        for o in 0..self.n_options() {
            writeln!(f, "{}", self.option_text(o))?;
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ItemRef {
    Primary(u32),
    Secondary(u32),
}

/// Builds a [`Problem`] item by item and option by option, checking each step.
///
/// ```
/// use backtrack::xcover::Problem;
///
/// # fn main() -> Result<(), backtrack::xcover::XcoverError> {
/// // Knuth's smallest colored example.
/// let mut b = Problem::builder();
/// b.primary_items(["p", "q", "r"])?;
/// b.secondary_items(["x", "y"])?;
/// b.option_colored([("p", None), ("q", None), ("x", None), ("y", Some("A"))])?;
/// b.option_colored([("p", None), ("r", None), ("x", Some("A")), ("y", None)])?;
/// b.option_colored([("p", None), ("x", Some("B"))])?;
/// b.option_colored([("q", None), ("x", Some("A"))])?;
/// b.option_colored([("r", None), ("y", Some("B"))])?;
/// let problem = b.build()?;
///
/// let solutions = problem.solve_all();
/// assert_eq!(solutions, vec![vec![3, 1]]); // `q x:A` then `p r x:A y`
/// # Ok(()) }
/// ```
#[derive(Debug, Default, Clone)]
pub struct Builder {
    primary: Vec<String>,
    bounds: Vec<(u32, u32)>,
    secondary: Vec<String>,
    by_name: HashMap<String, ItemRef>,
    colors: Vec<String>,
    color_ids: HashMap<String, u32>,
    option_start: Vec<usize>,
    entries: Vec<(ItemRef, u32)>,
    costs: Vec<u64>,
}

impl Builder {
    fn declare(&mut self, name: &str, secondary: bool) -> Result<usize, XcoverError> {
        if name.is_empty() {
            return Err(XcoverError::EmptyName);
        }
        if self.by_name.contains_key(name) {
            return Err(XcoverError::DuplicateItem(name.to_string()));
        }
        let list = if secondary { &mut self.secondary } else { &mut self.primary };
        let index = u32::try_from(list.len()).map_err(|_| XcoverError::TooLarge)?;
        list.push(name.to_string());
        let r = if secondary { ItemRef::Secondary(index) } else { ItemRef::Primary(index) };
        self.by_name.insert(name.to_string(), r);
        Ok(index as usize)
    }
    /// Declares a primary item (must be covered exactly once). Returns its index among the primary items.
    pub fn primary(&mut self, name: &str) -> Result<usize, XcoverError> {
        self.primary_bounded(name, 1, 1)
    }
    /// Declares a primary item that must be covered at least `lo` and at most
    /// `hi` times (`1 <= hi`, `lo <= hi`; `lo` may be 0). Returns its index
    /// among the primary items.
    pub fn primary_bounded(&mut self, name: &str, lo: u32, hi: u32) -> Result<usize, XcoverError> {
        if hi == 0 || lo > hi {
            return Err(XcoverError::BadBounds(name.to_string(), lo, hi));
        }
        let index = self.declare(name, false)?;
        self.bounds.push((lo, hi));
        Ok(index)
    }
    /// Declares a secondary item (covered at most once, or shared under one color).
    /// Returns its index among the secondary items.
    pub fn secondary(&mut self, name: &str) -> Result<usize, XcoverError> {
        self.declare(name, true)
    }
    /// Declares several primary items in order.
    pub fn primary_items<S: AsRef<str>>(&mut self, names: impl IntoIterator<Item = S>) -> Result<(), XcoverError> {
        names.into_iter().try_for_each(|n| self.primary(n.as_ref()).map(drop))
    }
    /// Declares several secondary items in order.
    pub fn secondary_items<S: AsRef<str>>(&mut self, names: impl IntoIterator<Item = S>) -> Result<(), XcoverError> {
        names.into_iter().try_for_each(|n| self.secondary(n.as_ref()).map(drop))
    }
    /// Adds an option made of the named items, none colored. Returns the option's index.
    pub fn option<S: AsRef<str>>(&mut self, items: impl IntoIterator<Item = S>) -> Result<usize, XcoverError> {
        self.option_colored(items.into_iter().map(|n| (n, None::<&str>)))
    }
    /// Adds an option whose entries are `(item, color)`; colors go on secondary items only.
    /// Returns the option's index. Nothing is added when the option is rejected.
    pub fn option_colored<S: AsRef<str>, C: AsRef<str>>(
        &mut self,
        items: impl IntoIterator<Item = (S, Option<C>)>,
    ) -> Result<usize, XcoverError> {
        let start = self.entries.len();
        let result = self.push_entries(items);
        match result {
            Ok(()) => {
                if self.option_start.is_empty() {
                    self.option_start.push(0);
                }
                self.option_start.push(self.entries.len());
                u32::try_from(self.entries.len()).map_err(|_| XcoverError::TooLarge)?;
                Ok(self.option_start.len() - 2)
            }
            Err(e) => {
                self.entries.truncate(start);
                Err(e)
            }
        }
    }
    fn push_entries<S: AsRef<str>, C: AsRef<str>>(
        &mut self,
        items: impl IntoIterator<Item = (S, Option<C>)>,
    ) -> Result<(), XcoverError> {
        let start = self.entries.len();
        let mut has_primary = false;
        for (name, color) in items {
            let name = name.as_ref();
            let r = *self.by_name.get(name).ok_or_else(|| XcoverError::UnknownItem(name.to_string()))?;
            if self.entries[start..].iter().any(|&(x, _)| x == r) {
                return Err(XcoverError::RepeatedItem(name.to_string()));
            }
            let color_id = match (r, color) {
                (_, None) => 0,
                (ItemRef::Primary(_), Some(_)) => return Err(XcoverError::ColorOnPrimary(name.to_string())),
                (ItemRef::Secondary(_), Some(c)) => self.color_id(name, c.as_ref())?,
            };
            has_primary |= matches!(r, ItemRef::Primary(_));
            self.entries.push((r, color_id));
        }
        if !has_primary {
            return Err(XcoverError::NoPrimaryItem);
        }
        Ok(())
    }
    fn color_id(&mut self, item: &str, color: &str) -> Result<u32, XcoverError> {
        if color.is_empty() {
            return Err(XcoverError::EmptyColor(item.to_string()));
        }
        if let Some(&id) = self.color_ids.get(color) {
            return Ok(id);
        }
        self.colors.push(color.to_string());
        let id = u32::try_from(self.colors.len()).map_err(|_| XcoverError::TooLarge)?;
        self.color_ids.insert(color.to_string(), id);
        Ok(id)
    }
    /// Gives option `option` (an index [`option`](Self::option) returned) the cost
    /// `cost` (Knuth's DLX5); options without one cost 0.
    pub fn set_cost(&mut self, option: usize, cost: u64) {
        if self.costs.len() <= option {
            self.costs.resize(option + 1, 0);
        }
        self.costs[option] = cost;
    }
    /// Number of options added so far.
    pub fn n_options(&self) -> usize {
        self.option_start.len().saturating_sub(1)
    }
    /// The finished problem: primary items first (in declaration order), then secondary ones.
    pub fn build(self) -> Result<Problem, XcoverError> {
        if self.primary.is_empty() {
            return Err(XcoverError::NoPrimaryItems);
        }
        let n_primary = self.primary.len();
        // The name index goes first, and the entries are rewritten in place,
        // so that building never holds the problem twice.
        drop(self.by_name);
        drop(self.color_ids);
        let entries = self
            .entries
            .into_iter()
            .map(|(r, color)| {
                let item = match r {
                    ItemRef::Primary(i) => i,
                    ItemRef::Secondary(i) => n_primary as u32 + i,
                };
                Entry { item, color }
            })
            .collect();
        let mut names = self.primary;
        names.extend(self.secondary);
        let option_start = if self.option_start.is_empty() { vec![0] } else { self.option_start };
        let n_options = option_start.len() - 1;
        let mut costs = self.costs;
        costs.truncate(n_options);
        if costs.iter().any(|&c| c != 0) {
            costs.resize(n_options, 0);
        } else {
            costs = Vec::new();
        }
        Ok(Problem { names, n_primary, bounds: self.bounds, colors: self.colors, option_start, entries, costs })
    }
}
