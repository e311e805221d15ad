//! Which IR function of a pass dump a runtime kernel ran — the rule the swimlane's "IR Pass
//! Trace" and "Memory Map" buttons follow to open a selected task's function, so a user goes
//! from a slow bar to its IR.
//!
//! A kernel's name comes from the run's name map (the CALLABLE's names: a PyPTO-compiled
//! program names its kernels after their functions, `kernel_qk_matmul`; hand-written tests
//! abbreviate them, `QK`); a function's name is the IR's (`Class.method` in the pass trace, the
//! method alone in the memory map — only the part after the last `.` is compared). Both are
//! compared in lower case without a leading `kernel_`, `aic_` or `aiv_`, split into words at
//! `_`. The first rule that matches any function decides; when it matches several, the match
//! is ambiguous and the candidates are offered — a later rule is never tried:
//!
//! 1. **exact** — the names are equal;
//! 2. **same name** — equal once normalised (case, prefix);
//! 3. **words** — the kernel's words appear in order, adjacent, among the function's
//!    (`qk` → `kernel_qk_matmul`, `softmax` → `kernel_softmax_prepare`);
//! 4. **word prefix** — the kernel's name (≥ 2 characters) starts a word of the function
//!    (`up` → `kernel_online_update`);
//! 5. **abbreviation** — the kernel's letters (≥ 2, one word) start a word of the function and
//!    follow in order within it and the words after it (`sf` → `kernel_softmax_prepare`).
//!
//! Nothing matching is said as such (the views show every function then).

/// How a kernel name matched a function name (the rule that decided).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchRule {
    Exact,
    SameName,
    Words,
    WordPrefix,
    Abbreviation,
}

impl MatchRule {
    /// The rule in a sentence a banner can show.
    pub fn describe(self) -> &'static str {
        match self {
            Self::Exact => "the same name",
            Self::SameName => "the same name ignoring case and the kernel_/aic_/aiv_ prefix",
            Self::Words => "the kernel's name is a word of the function's",
            Self::WordPrefix => "the kernel's name starts a word of the function's",
            Self::Abbreviation => "the kernel's name abbreviates a word of the function's",
        }
    }
}

/// What [`match_kernel`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KernelMatch {
    /// One function (given as passed in) and the rule that found it.
    One { function: String, rule: MatchRule },
    /// Several functions match the deciding rule equally.
    Several { functions: Vec<String>, rule: MatchRule },
    /// No function matches.
    None,
}

const PREFIXES: [&str; 3] = ["kernel_", "aic_", "aiv_"];

/// The method part, lower case, without a leading `kernel_` / `aic_` / `aiv_`.
fn normalise(name: &str) -> String {
    let method = name.rsplit('.').next().unwrap_or(name).to_ascii_lowercase();
    PREFIXES.iter().find_map(|p| method.strip_prefix(p)).filter(|rest| !rest.is_empty()).map_or_else(|| method.clone(), str::to_owned)
}

fn words(name: &str) -> Vec<&str> {
    name.split('_').filter(|w| !w.is_empty()).collect()
}

fn is_subsequence(needle: &[u8], hay: &[u8]) -> bool {
    let mut it = hay.iter();
    needle.iter().all(|c| it.any(|h| h == c))
}

fn matches(rule: MatchRule, kernel: &str, function: &str) -> bool {
    let (k, f) = (normalise(kernel), normalise(function));
    let (kw, fw) = (words(&k), words(&f));
    match rule {
        MatchRule::Exact => function.rsplit('.').next() == Some(kernel),
        MatchRule::SameName => k == f,
        MatchRule::Words => !kw.is_empty() && fw.windows(kw.len()).any(|w| w == kw.as_slice()),
        MatchRule::WordPrefix => k.len() >= 2 && kw.len() == 1 && fw.iter().any(|w| w.starts_with(k.as_str())),
        MatchRule::Abbreviation => {
            k.len() >= 2
                && kw.len() == 1
                && k.bytes().all(|b| b.is_ascii_alphanumeric())
                && (0..fw.len()).any(|i| {
                    let rest: String = fw.get(i..).unwrap_or_default().concat();
                    fw.get(i).is_some_and(|w| w.as_bytes().first() == k.as_bytes().first()) && is_subsequence(k.as_bytes(), rest.as_bytes())
                })
        }
    }
}

/// The function of `functions` kernel `kernel` ran, by the module's rules.
pub fn match_kernel<S: AsRef<str>>(kernel: &str, functions: &[S]) -> KernelMatch {
    let kernel = kernel.trim();
    if kernel.is_empty() {
        return KernelMatch::None;
    }
    for rule in [MatchRule::Exact, MatchRule::SameName, MatchRule::Words, MatchRule::WordPrefix, MatchRule::Abbreviation] {
        let hits: Vec<String> = functions.iter().map(AsRef::as_ref).filter(|f| matches(rule, kernel, f)).map(str::to_owned).collect();
        match hits.len() {
            0 => {}
            1 => return KernelMatch::One { function: hits.into_iter().next().unwrap_or_default(), rule },
            _ => return KernelMatch::Several { functions: hits, rule },
        }
    }
    KernelMatch::None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The demo's pass dump (generated-paged_attention) and its capture's name map.
    const PAGED: [&str; 6] = [
        "PagedAttentionProgram.kernel_init_inplace",
        "PagedAttentionProgram.kernel_online_update",
        "PagedAttentionProgram.kernel_pv_matmul",
        "PagedAttentionProgram.kernel_qk_matmul",
        "PagedAttentionProgram.kernel_softmax_prepare",
        "PagedAttentionProgram.paged_attention",
    ];

    fn one(kernel: &str, functions: &[&str]) -> (String, MatchRule) {
        match match_kernel(kernel, functions) {
            KernelMatch::One { function, rule } => (function, rule),
            other => panic!("{kernel}: {other:?}"),
        }
    }

    #[test]
    fn the_demo_kernels_find_their_functions() {
        assert_eq!(one("QK", &PAGED), ("PagedAttentionProgram.kernel_qk_matmul".into(), MatchRule::Words));
        assert_eq!(one("PV", &PAGED), ("PagedAttentionProgram.kernel_pv_matmul".into(), MatchRule::Words));
        assert_eq!(one("UP", &PAGED), ("PagedAttentionProgram.kernel_online_update".into(), MatchRule::WordPrefix));
        assert_eq!(one("SF", &PAGED), ("PagedAttentionProgram.kernel_softmax_prepare".into(), MatchRule::Abbreviation));
    }

    #[test]
    fn the_stronger_rule_decides() {
        assert_eq!(one("kernel_qk_matmul", &PAGED).1, MatchRule::Exact);
        assert_eq!(one("KERNEL_QK_MATMUL", &PAGED).1, MatchRule::SameName);
        assert_eq!(one("aiv_softmax_prepare", &PAGED).1, MatchRule::SameName);
        assert_eq!(one("online_update", &PAGED).1, MatchRule::SameName);
        assert_eq!(one("softmax", &PAGED), ("PagedAttentionProgram.kernel_softmax_prepare".into(), MatchRule::Words));
        // bare names (the memory map's)
        assert_eq!(
            one("paged_attention", &["paged_attention", "kernel_paged_attention_tail"]),
            ("paged_attention".into(), MatchRule::Exact)
        );
    }

    #[test]
    fn ambiguity_and_absence_are_said() {
        assert_eq!(
            match_kernel("matmul", &PAGED),
            KernelMatch::Several {
                functions: vec!["PagedAttentionProgram.kernel_pv_matmul".into(), "PagedAttentionProgram.kernel_qk_matmul".into()],
                rule: MatchRule::Words
            }
        );
        assert_eq!(match_kernel("GEMM", &PAGED), KernelMatch::None);
        assert_eq!(match_kernel("", &PAGED), KernelMatch::None);
        assert_eq!(match_kernel("x", &PAGED), KernelMatch::None);
        assert_eq!(match_kernel::<&str>("QK", &[]), KernelMatch::None);
        // one letter never abbreviates
        assert_eq!(match_kernel("s", &["kernel_softmax"]), KernelMatch::None);
    }
}
