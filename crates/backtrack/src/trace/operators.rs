//! 14888 (inserting operators), traced two ways by [`OperatorsSearch`].

use std::collections::hash_map::Entry;
use std::collections::HashMap;

use crate::boj::operators::{Expression, Op};
use crate::lang::Lang;
use crate::search::{Node, Order, Space};

use super::words::Words;
use super::{Answer, Strategy, Traced};

/// The operator's sign as the trace writes it.
fn sign(op: Op) -> &'static str {
    match op {
        Op::Add => "+",
        Op::Sub => "-",
        Op::Mul => "×",
        Op::Div => "÷",
    }
}

/// What both searches keep: the numbers, the operators laid, the value after each.
#[derive(Debug, Clone)]
struct Laid {
    numbers: Vec<i128>,
    /// The operator in each gap filled so far.
    ops: Vec<Op>,
    /// `values[k]`: the value after the first `k + 1` numbers.
    values: Vec<i128>,
    /// The largest and smallest results met so far.
    extremes: Option<(i128, i128)>,
}

impl Laid {
    fn new(numbers: &[i128]) -> Laid {
        Laid { numbers: numbers.to_vec(), ops: Vec::new(), values: vec![numbers[0]], extremes: None }
    }

    fn complete(&self) -> bool {
        self.ops.len() + 1 == self.numbers.len()
    }

    /// Lays `op` in the next gap; returns the new value.
    fn lay(&mut self, op: Op) -> i128 {
        let value = op.apply(*self.values.last().expect("the first number"), self.numbers[self.ops.len() + 1]);
        self.ops.push(op);
        self.values.push(value);
        value
    }

    fn take_back(&mut self) {
        self.ops.pop();
        self.values.pop();
    }

    /// A complete expression reached: counts it in the extremes.
    fn reached(&mut self) {
        let value = *self.values.last().expect("the first number");
        let (max, min) = self.extremes.unwrap_or((value, value));
        self.extremes = Some((max.max(value), min.min(value)));
    }

    /// The numbers, then the operator in each gap (1 to 4 for + - × ÷, 0 for none yet), interleaved.
    fn board(&self, out: &mut Vec<u8>) {
        for (k, &number) in self.numbers.iter().enumerate() {
            if k > 0 {
                let op = self.ops.get(k - 1).map_or(0, |&op| op as u8 + 1);
                out.push(op);
            }
            out.push(number.min(255) as u8);
        }
    }

    fn choice_text(&self, op: Op, depth: usize) -> String {
        format!("{} {}", sign(op), self.numbers[depth + 1])
    }

    fn solution_text(&self, lang: Lang) -> String {
        let mut expression = self.numbers[0].to_string();
        for (op, number) in self.ops.iter().zip(&self.numbers[1..]) {
            expression.push_str(&format!(" {} {number}", sign(*op)));
        }
        let value = *self.values.last().expect("the first number");
        let (max, min) = self.extremes.expect("a complete expression counted");
        Words::Expression { expression: &expression, value, max, min }.say(lang)
    }

    fn answer(&self) -> Option<Answer> {
        self.extremes.map(|(max, min)| Answer::Extremes { max, min })
    }
}

/// 14888 (inserting operators), traced two ways.
///
/// The N-1 operators are cards laid in the gaps one by one. The naive
/// search is the one a learner writes first: every order of the cards (a
/// card already laid is skipped), so equal operators give the same
/// expression many times: (N-1)! leaves. The smart one is the library's
/// ([`crate::boj::operators`]): equal operators are one choice (only the
/// first unused card of each kind is tried), and a value that lies inside
/// the range already walked from the same state (the same operators used)
/// is cut, since from a value inside that range no result can pass the
/// extremes already met. Both find the same largest and smallest results.
#[derive(Debug, Clone)]
pub struct OperatorsSearch {
    laid: Laid,
    /// The operators as cards, `+` first, as the input counts them.
    cards: Vec<Op>,
    used: Vec<bool>,
    /// The card laid in each gap.
    path: Vec<usize>,
    /// Whether equal operators are one choice and walked ranges are cut (the smart search).
    smart: bool,
    /// For each state (operators used, packed), the lowest and highest value walked from it.
    seen: HashMap<u64, (i128, i128)>,
    /// The range that cut the last push, if it was cut.
    cut: Option<(i128, i128)>,
}

impl OperatorsSearch {
    /// The search of `expr` that `strategy` names.
    pub fn new(expr: &Expression, strategy: Strategy) -> OperatorsSearch {
        let cards: Vec<Op> = Op::ALL.iter().zip(expr.counts).flat_map(|(&op, c)| std::iter::repeat_n(op, c)).collect();
        OperatorsSearch {
            laid: Laid::new(&expr.numbers),
            used: vec![false; cards.len()],
            cards,
            path: Vec::new(),
            smart: strategy == Strategy::Smart,
            seen: HashMap::new(),
            cut: None,
        }
    }

    /// Whether `card` is the first unused one of its kind (equal cards follow each other).
    fn first_of_kind(&self, card: usize) -> bool {
        card == 0 || self.cards[card - 1] != self.cards[card] || self.used[card - 1]
    }

    /// The state after the operators laid: how many of each kind, 8 bits each.
    fn state(&self) -> u64 {
        let mut used = [0u64; 4];
        for &op in &self.laid.ops {
            used[op as usize] += 1;
        }
        used.iter().fold(0, |key, &u| key << 8 | u)
    }
}

impl Space for OperatorsSearch {
    /// The next card to try.
    type Branch = usize;
    /// A card.
    type Choice = usize;
    /// The result.
    type Solution = i128;

    fn expand(&mut self, _order: Order) -> Node<usize> {
        if self.laid.complete() {
            self.laid.reached();
            Node::Solution
        } else {
            Node::Branch(0)
        }
    }

    fn next_choice(&mut self, next: &mut usize) -> Option<usize> {
        let card = (*next..self.cards.len()).find(|&c| !self.used[c] && (!self.smart || self.first_of_kind(c)))?;
        *next = card + 1;
        Some(card)
    }

    fn push(&mut self, card: usize) -> bool {
        self.used[card] = true;
        self.path.push(card);
        let value = self.laid.lay(self.cards[card]);
        self.cut = None;
        if self.smart && !self.laid.complete() {
            match self.seen.entry(self.state()) {
                Entry::Vacant(entry) => {
                    entry.insert((value, value));
                }
                Entry::Occupied(mut entry) => {
                    let (low, high) = *entry.get();
                    if low <= value && value <= high {
                        self.cut = Some((low, high));
                    } else {
                        entry.insert((low.min(value), high.max(value)));
                    }
                }
            }
        }
        self.cut.is_none()
    }

    fn pop(&mut self) {
        let card = self.path.pop().expect("pop matches a push");
        self.used[card] = false;
        self.laid.take_back();
    }

    fn solution(&self) -> i128 {
        *self.laid.values.last().expect("the first number")
    }
}

impl Traced for OperatorsSearch {
    fn board(&self, out: &mut Vec<u8>) {
        self.laid.board(out);
    }
    fn choice_text(&self, card: usize, depth: usize, _lang: Lang) -> String {
        self.laid.choice_text(self.cards[card], depth)
    }
    fn focus(&self, _card: usize, depth: usize) -> Option<usize> {
        Some(2 * depth + 1)
    }
    fn rejection(&self, _card: usize, _depth: usize, lang: Lang) -> (String, Option<usize>) {
        match self.cut {
            Some((low, high)) => {
                let value = *self.laid.values.last().expect("the first number");
                (Words::RangeWalked { value, low, high }.say(lang), None)
            }
            None => (Words::BreaksConstraint.say(lang), None),
        }
    }
    fn solution_text(&self, lang: Lang) -> String {
        self.laid.solution_text(lang)
    }
    fn answer(&self) -> Option<Answer> {
        self.laid.answer()
    }
}
