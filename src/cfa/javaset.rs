//! The iteration order of a `java.util.HashSet<String>`, which decides the order in which CPAchecker
//! tries the targets of a function-pointer call.

/// Java's `String.hashCode` (over UTF-16 code units, wrapping).
fn java_string_hash(s: &str) -> i32 {
    s.encode_utf16().fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(c as i32))
}

/// The order in which a `HashSet<String>` built by inserting `items` (duplicates ignored) iterates:
/// by bucket of `HashMap.hash`, insertion order inside a bucket, with the default capacity 16, load
/// factor 0.75 and doubling on growth (which keeps the relative order inside buckets).
pub(super) fn hash_set_order(items: &[String]) -> Vec<String> {
    let mut unique: Vec<&String> = Vec::new();
    for it in items {
        if !unique.contains(&it) {
            unique.push(it);
        }
    }
    let mut capacity = 16usize;
    while unique.len() > capacity * 3 / 4 {
        capacity *= 2;
    }
    let mut keyed: Vec<(usize, usize, &String)> = unique
        .iter()
        .enumerate()
        .map(|(order, s)| {
            let h = java_string_hash(s);
            let spread = (h ^ ((h as u32) >> 16) as i32) as u32 as usize;
            (spread & (capacity - 1), order, *s)
        })
        .collect();
    keyed.sort();
    keyed.into_iter().map(|(_, _, s)| s.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_hash_matches_java() {
        // Values of "".hashCode(), "a".hashCode(), "hello".hashCode() and "ppp_open".hashCode() in Java.
        assert_eq!(java_string_hash(""), 0);
        assert_eq!(java_string_hash("a"), 97);
        assert_eq!(java_string_hash("hello"), 99162322);
    }

    #[test]
    fn order_follows_buckets_then_insertion() {
        let items: Vec<String> = ["b", "a", "c", "a"].iter().map(|s| s.to_string()).collect();
        // Single-character strings hash to their code, so buckets 97, 98, 99 mod 16.
        assert_eq!(hash_set_order(&items), ["a", "b", "c"]);
    }
}
