//! The interpreter's side of loop acceleration (`accel`): the values at a loop head, read from its
//! objects, and the jump applied to them.
//!
//! In random testing's runs, a try that finds nothing is repeated at the same head only after a
//! number of visits that doubles with each failure (up to `MAX_BACKOFF`), so a loop outside the
//! class costs little; the runs that confirm a path try at every visit, as the explorer does, so
//! that both jump at the same places.

use super::{Interp, Val, R};
use crate::base::bits;
use crate::cfa::{CallSiteId, NodeId};
use crate::cfront::ir::VarId;
use crate::symex::accel::{self, HeadValues, Jump};

/// The most visits of a loop head between two tries.
const MAX_BACKOFF: u32 = 1 << 12;

struct Values<'i, 'a> {
    it: &'i Interp<'a>,
}

impl HeadValues for Values<'_, '_> {
    fn int(&mut self, v: VarId) -> Option<i128> {
        let it = self.it;
        let types = &it.prog.types;
        let int = types.as_int(it.prog.var(v).ty)?;
        let width = int.bits(types.data_model());
        let id = if it.is_global(v) { it.globals.get(&v).copied() } else { it.frames.last()?.locals.get(&v).copied() }?;
        let o = it.objs.get(id as usize)?.as_ref()?;
        // Bytes never written are inputs: not read here.
        let bytes: Vec<u8> = (0..o.size).map(|k| o.bytes.get(&k).copied().or(o.default)).collect::<Option<_>>()?;
        if bytes.len() as u32 * 8 != width {
            return None;
        }
        let x = bytes.iter().rev().fold(0u128, |acc, &b| acc << 8 | u128::from(b));
        Some(if int.signed { bits::sign_extend(x, width) } else { x as i128 })
    }
}

impl Interp<'_> {
    /// Jumps over the iterations of the loop at `head` (entered by `call_site`'s frame) that
    /// `accel::jump` finds, if it is time to try.
    pub(super) fn try_jump(&mut self, head: NodeId, call_site: Option<CallSiteId>) -> R<Option<Jump>> {
        let (wait, failures) = self.backoff.get(&head).copied().unwrap_or((0, 0));
        if wait > 0 && self.with_backoff {
            self.backoff.insert(head, (wait - 1, failures));
            return Ok(None);
        }
        let found = accel::jump(&self.w, head, call_site, &mut Values { it: self });
        let Some(j) = found else {
            let failures = failures.saturating_add(1);
            self.backoff.insert(head, ((1u32 << failures.min(12)).min(MAX_BACKOFF), failures));
            return Ok(None);
        };
        self.backoff.remove(&head);
        for &(v, x) in j.after.iter().chain(&j.temporaries) {
            let ty = self.prog.var(v).ty;
            // A temporary not allocated yet is dead here; so is its value.
            let bound = if self.is_global(v) {
                self.globals.contains_key(&v)
            } else {
                self.frames.last().is_some_and(|f| f.locals.contains_key(&v))
            };
            if !bound {
                continue;
            }
            let place = crate::symex::initializer::Initialize::var_place(self, v)?;
            let width = self.prog.types.as_int(ty).map_or(0, |i| i.bits(self.prog.types.data_model()));
            self.write(&place, Val::Int(bits::truncate(x as u128, width), width))?;
        }
        for &v in &j.allocs {
            let n = self.instances.entry(v).or_insert(0);
            *n = n.saturating_add(u32::try_from(j.times).unwrap_or(u32::MAX));
        }
        Ok(Some(j))
    }
}
