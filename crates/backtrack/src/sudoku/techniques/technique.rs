//! The solving techniques: their names, ratings and order.

use std::fmt;
use std::str::FromStr;

use crate::error::Quoted;

/// A solving technique.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum Technique {
    HiddenSingle,
    DirectPointing,
    DirectClaiming,
    DirectHiddenPair,
    NakedSingle,
    DirectHiddenTriplet,
    Pointing,
    Claiming,
    NakedPair,
    XWing,
    HiddenPair,
    NakedTriplet,
    Swordfish,
    HiddenTriplet,
    Skyscraper,
    TwoStringKite,
    TurbotFish,
    EmptyRectangle,
    GroupedSkyscraper,
    GroupedTwoStringKite,
    XYWing,
    XYZWing,
    UniqueRectangle,
    UniqueLoop,
    NakedQuad,
    Jellyfish,
    HiddenQuad,
    ThreeStrongLinks,
    GroupedThreeStrongLinks,
    WXYZWing,
    Bug,
    BugType2,
    BugType3,
    BugType4,
    VWXYZWing,
    AlignedPairExclusion,
    XCycle,
    YCycle,
    ForcingXChain,
    Cycle,
    ForcingChain,
    AlignedTripletExclusion,
    NishioForcingChain,
    CellForcingChain,
    RegionForcingChain,
    DynamicForcingChain,
    DynamicForcingChainPlus,
    NestedForcingChain,
    NestedMultipleForcingChain,
    NestedDynamicForcingChain,
}

impl Technique {
    /// Every technique, from the easiest.
    pub const ALL: [Technique; 50] = [
        Technique::HiddenSingle,
        Technique::DirectPointing,
        Technique::DirectClaiming,
        Technique::DirectHiddenPair,
        Technique::NakedSingle,
        Technique::DirectHiddenTriplet,
        Technique::Pointing,
        Technique::Claiming,
        Technique::NakedPair,
        Technique::XWing,
        Technique::HiddenPair,
        Technique::NakedTriplet,
        Technique::Swordfish,
        Technique::HiddenTriplet,
        Technique::Skyscraper,
        Technique::TwoStringKite,
        Technique::TurbotFish,
        Technique::EmptyRectangle,
        Technique::GroupedSkyscraper,
        Technique::GroupedTwoStringKite,
        Technique::XYWing,
        Technique::XYZWing,
        Technique::UniqueRectangle,
        Technique::UniqueLoop,
        Technique::NakedQuad,
        Technique::Jellyfish,
        Technique::HiddenQuad,
        Technique::ThreeStrongLinks,
        Technique::GroupedThreeStrongLinks,
        Technique::WXYZWing,
        Technique::Bug,
        Technique::BugType2,
        Technique::BugType3,
        Technique::BugType4,
        Technique::VWXYZWing,
        Technique::AlignedPairExclusion,
        Technique::XCycle,
        Technique::YCycle,
        Technique::ForcingXChain,
        Technique::Cycle,
        Technique::ForcingChain,
        Technique::AlignedTripletExclusion,
        Technique::NishioForcingChain,
        Technique::CellForcingChain,
        Technique::RegionForcingChain,
        Technique::DynamicForcingChain,
        Technique::DynamicForcingChainPlus,
        Technique::NestedForcingChain,
        Technique::NestedMultipleForcingChain,
        Technique::NestedDynamicForcingChain,
    ];

    /// The technique's name, as Sudoku Explainer writes it.
    pub fn name(self) -> &'static str {
        match self {
            Technique::HiddenSingle => "Hidden Single",
            Technique::DirectPointing => "Direct Pointing",
            Technique::DirectClaiming => "Direct Claiming",
            Technique::DirectHiddenPair => "Direct Hidden Pair",
            Technique::NakedSingle => "Naked Single",
            Technique::DirectHiddenTriplet => "Direct Hidden Triplet",
            Technique::Pointing => "Pointing",
            Technique::Claiming => "Claiming",
            Technique::NakedPair => "Naked Pair",
            Technique::XWing => "X-Wing",
            Technique::HiddenPair => "Hidden Pair",
            Technique::NakedTriplet => "Naked Triplet",
            Technique::Swordfish => "Swordfish",
            Technique::HiddenTriplet => "Hidden Triplet",
            Technique::Skyscraper => "Skyscraper",
            Technique::TwoStringKite => "2-String Kite",
            Technique::TurbotFish => "Turbot Fish",
            Technique::EmptyRectangle => "Empty Rectangle",
            Technique::GroupedSkyscraper => "Grouped Skyscraper",
            Technique::GroupedTwoStringKite => "Grouped 2-String Kite",
            Technique::XYWing => "XY-Wing",
            Technique::XYZWing => "XYZ-Wing",
            Technique::UniqueRectangle => "Unique Rectangle",
            Technique::UniqueLoop => "Unique Loop",
            Technique::NakedQuad => "Naked Quad",
            Technique::Jellyfish => "Jellyfish",
            Technique::HiddenQuad => "Hidden Quad",
            Technique::ThreeStrongLinks => "Three Strong Links",
            Technique::GroupedThreeStrongLinks => "Grouped Three Strong Links",
            Technique::WXYZWing => "WXYZ-Wing",
            Technique::Bug => "Bivalue Universal Grave",
            Technique::BugType2 => "Bivalue Universal Grave Type 2",
            Technique::BugType3 => "Bivalue Universal Grave Type 3",
            Technique::BugType4 => "Bivalue Universal Grave Type 4",
            Technique::VWXYZWing => "VWXYZ-Wing",
            Technique::AlignedPairExclusion => "Aligned Pair Exclusion",
            Technique::XCycle => "Bidirectional X-Cycle",
            Technique::YCycle => "Bidirectional Y-Cycle",
            Technique::ForcingXChain => "Forcing X-Chain",
            Technique::Cycle => "Bidirectional Cycle",
            Technique::ForcingChain => "Forcing Chain",
            Technique::AlignedTripletExclusion => "Aligned Triplet Exclusion",
            Technique::NishioForcingChain => "Nishio Forcing Chain",
            Technique::CellForcingChain => "Cell Forcing Chain",
            Technique::RegionForcingChain => "Region Forcing Chain",
            Technique::DynamicForcingChain => "Dynamic Forcing Chain",
            Technique::DynamicForcingChainPlus => "Dynamic Forcing Chain Plus",
            Technique::NestedForcingChain => "Dynamic Forcing Chain (+ Forcing Chains)",
            Technique::NestedMultipleForcingChain => "Dynamic Forcing Chain (+ Multiple Forcing Chains)",
            Technique::NestedDynamicForcingChain => "Dynamic Forcing Chain (+ Dynamic Forcing Chains)",
        }
    }

    /// The name as a command-line word: lower case, its words (runs of
    /// letters and digits) joined by `-`, so "Dynamic Forcing Chain (+
    /// Forcing Chains)" is `dynamic-forcing-chain-forcing-chains`.
    pub fn slug(self) -> String {
        let lower = self.name().to_ascii_lowercase();
        let words: Vec<&str> = lower.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).collect();
        words.join("-")
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no technique's; the message names the techniques whose
/// names hold the word given, if any, and otherwise a few examples (the whole
/// list is too long for one message: see [`Technique::ALL`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownTechnique(String);

crate::error::message_error!(UnknownTechnique);

impl FromStr for Technique {
    type Err = UnknownTechnique;

    /// Reads a name in any case, with spaces, `-` or `_` between words or none.
    fn from_str(s: &str) -> Result<Technique, UnknownTechnique> {
        let squash = |t: &str| t.chars().filter(|c| c.is_ascii_alphanumeric()).collect::<String>().to_ascii_lowercase();
        let wanted = squash(s);
        Technique::ALL
            .into_iter()
            .find(|t| squash(t.name()) == wanted || (wanted == "bug" && *t == Technique::Bug))
            .ok_or_else(|| {
                let near: Vec<String> = Technique::ALL
                    .iter()
                    .filter(|t| !wanted.is_empty() && squash(t.name()).contains(&wanted))
                    .take(6)
                    .map(|t| t.slug())
                    .collect();
                let hint = if near.is_empty() {
                    "names are like x-wing, xy-wing, forcing-chain; --help lists them all".to_string()
                } else {
                    format!("did you mean {}?", near.join(", "))
                };
                UnknownTechnique(format!("unknown technique '{}' ({hint})", Quoted(s)))
            })
    }
}
