//! The explorer's side of loop acceleration (`accel`): the values at a loop head, read from a
//! path's state where they are constants, and the jump applied to it.
//!
//! Only a guide that `accelerates` gets jumps (`verify`'s `Exhaustive`): the guide sees none of the
//! edges jumped over. A path jumps only where every value the walk reads is a constant of the
//! state, so its jumps are those the concrete interpreter makes from the same values; `confirm`
//! compares the two as sequences of edges all the same.

use super::super::accel::{self, HeadValues};
use super::super::exec::World;
use super::super::memory::{Byte, ObjId};
use super::super::state::SymState;
use super::super::trace::Repeat;
use crate::base::bits;
use crate::cfa::NodeId;
use crate::cfront::ir::{VarId, VarKind};

struct StateValues<'s, 'w> {
    w: &'s World<'w>,
    st: &'s SymState,
}

/// The object of variable `v` in the state's top frame, or of the global `v`.
fn object_of(st: &SymState, v: VarId, global: bool) -> Option<ObjId> {
    if global {
        st.globals.get(&v).copied()
    } else {
        st.top().local(v)
    }
}

fn is_global(w: &World<'_>, v: VarId) -> bool {
    matches!(w.prog.var(v).kind, VarKind::Global | VarKind::StaticLocal(_))
}

impl HeadValues for StateValues<'_, '_> {
    fn int(&mut self, v: VarId) -> Option<i128> {
        let types = &self.w.prog.types;
        let int = types.as_int(self.w.prog.var(v).ty)?;
        let width = int.bits(types.data_model());
        if self.w.havoc.contains(&v) {
            return None;
        }
        let o = self.st.mem.get(object_of(self.st, v, is_global(self.w, v))?)?;
        if o.havoc || o.size * 8 != u64::from(width) {
            return None;
        }
        let mut x = 0u128;
        for k in 0..o.size {
            x |= u128::from(o.byte(k).as_const()?) << (8 * k);
        }
        Some(if int.signed { bits::sign_extend(x, width) } else { x as i128 })
    }
}

/// Jumps `st`, at the loop head `head`, over the iterations `accel::jump` finds, if any: the
/// variables get their values after them, and the path records the jump. Returns the number of
/// edges of one iteration.
pub(super) fn try_jump(w: &World<'_>, st: &mut SymState, head: NodeId) -> Option<usize> {
    let call_site = st.top().call_site;
    let j = accel::jump(w, head, call_site, &mut StateValues { w, st })?;
    // Every write is found before any is made: a jump changes the state whole or not at all.
    let mut writes = Vec::new();
    for &(v, x) in j.after.iter().chain(&j.temporaries) {
        let width = w.prog.types.as_int(w.prog.var(v).ty).map(|i| i.bits(w.prog.types.data_model()))?;
        // A temporary not allocated yet is dead here; so is its value.
        let Some(id) = object_of(st, v, is_global(w, v)) else { continue };
        st.mem.get(id)?;
        writes.push((id, width, bits::truncate(x as u128, width)));
    }
    for (id, width, bytes) in writes {
        let Some(o) = st.mem.get_mut(id) else { continue };
        for k in 0..u64::from(width / 8) {
            o.set_byte(k, Byte::constant((bytes >> (8 * k)) as u8));
        }
    }
    let len = j.body.len();
    st.jumps.push(Repeat { at: st.path.len(), body: j.body, times: j.times, after: j.after });
    Some(len)
}
