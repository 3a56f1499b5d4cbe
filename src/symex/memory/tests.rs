//! Unit tests of the memory model: reads and writes at constant and symbolic addresses, fresh bytes,
//! ids, sharing between clones, and what escapes to functions without body.

use super::*;
use crate::cfront::types::DataModel;

/// A context without path condition: fresh bytes are new inputs, and `possible_values` is not
/// needed by these tests. Counts reads of stale bytes and forgets them if `havoc`.
struct Ctx {
    aig: Aig,
    fresh: Vec<(u32, u64)>,
    stale_reads: u32,
    havoc: bool,
}

impl MemCtx for Ctx {
    fn aig(&mut self) -> &mut Aig {
        &mut self.aig
    }
    fn fresh_byte(&mut self, alloc: u32, offset: u64) -> Byte {
        self.fresh.push((alloc, offset));
        Byte::of(&Bv::input(&mut self.aig, 8), 0)
    }
    fn possible_values(&mut self, _bv: &Bv, _max: usize) -> Option<Vec<u128>> {
        None
    }
    fn read_stale(&mut self) -> bool {
        self.stale_reads += 1;
        self.havoc
    }
}

fn setup() -> (Memory, Ctx, Layout) {
    let layout = Layout::for_model(DataModel::Ilp32);
    (Memory::new(layout, 1), Ctx { aig: Aig::default(), fresh: vec![], stale_reads: 0, havoc: false }, layout)
}

fn word(v: u32) -> Vec<Byte> {
    bv_to_bytes(&Bv::constant(v as u128, 32))
}

#[test]
fn concrete_reads_and_writes() {
    let (mut mem, mut ctx, l) = setup();
    let a = mem.alloc(Object::new(16, ObjKind::Heap, 0, Byte::constant(0))).unwrap();
    assert_eq!(a, 1);
    let inv = mem.write(&mut ctx, &l.address_bv(a, 4), &word(0xdead_beef), AigLit::TRUE).unwrap();
    assert_eq!(inv, AigLit::FALSE);
    let (bytes, inv) = mem.read(&mut ctx, &l.address_bv(a, 4), 4).unwrap();
    assert_eq!((bytes_to_bv(&bytes).as_const(), inv), (Some(0xdead_beef), AigLit::FALSE));
    // Little-endian: the byte at offset 4 is the low byte.
    let (bytes, _) = mem.read(&mut ctx, &l.address_bv(a, 4), 1).unwrap();
    assert_eq!(bytes[0].as_const(), Some(0xef));
    // Past the end, and null.
    let (_, inv) = mem.read(&mut ctx, &l.address_bv(a, 14), 4).unwrap();
    assert_eq!(inv, AigLit::TRUE);
    let (_, inv) = mem.read(&mut ctx, &Bv::zero(32), 4).unwrap();
    assert_eq!(inv, AigLit::TRUE);
    assert_eq!(ctx.aig.n_ands(), 0);
}

#[test]
fn never_written_bytes_are_fresh_once() {
    let (mut mem, mut ctx, l) = setup();
    let a = mem.alloc(Object::new(4, ObjKind::Heap, 7, Byte::uninit())).unwrap();
    let (x, _) = mem.read(&mut ctx, &l.address_bv(a, 0), 4).unwrap();
    let (y, _) = mem.read(&mut ctx, &l.address_bv(a, 0), 4).unwrap();
    assert_eq!(x, y, "the second read sees the bytes the first one created");
    assert_eq!(ctx.fresh, vec![(7, 0), (7, 1), (7, 2), (7, 3)]);
}

#[test]
fn symbolic_offset_selects_among_elements() {
    let (mut mem, mut ctx, l) = setup();
    let a = mem.alloc(Object::new(12, ObjKind::Heap, 0, Byte::constant(0))).unwrap();
    for i in 0..3u32 {
        mem.write(&mut ctx, &l.address_bv(a, 4 * i as u64), &word(10 + i), AigLit::TRUE).unwrap();
    }
    // addr = &a[0] + 4*i for a symbolic 2-bit i.
    let i = Bv::input(&mut ctx.aig, 2).zext(32);
    let four_i = i.shl(&mut ctx.aig, &Bv::constant(2, 32));
    let addr = l.address_bv(a, 0).add(&mut ctx.aig, &four_i);
    let (bytes, inv) = mem.read(&mut ctx, &addr, 4).unwrap();
    let v = bytes_to_bv(&bytes);
    for iv in 0..4u128 {
        let val = v.eval(&ctx.aig, &|inp| (iv >> inp.idx()) & 1 == 1);
        let bad = ctx.aig.eval(inv, &|inp| (iv >> inp.idx()) & 1 == 1);
        assert_eq!(bad, iv == 3, "i = {iv}");
        if iv < 3 {
            assert_eq!(val, 10 + iv);
        }
    }
    // A symbolic write to a[i] changes exactly the selected element.
    mem.write(&mut ctx, &addr, &word(99), AigLit::TRUE).unwrap();
    for k in 0..3u64 {
        let (bytes, _) = mem.read(&mut ctx, &l.address_bv(a, 4 * k), 4).unwrap();
        let v = bytes_to_bv(&bytes);
        for iv in 0..3u128 {
            let val = v.eval(&ctx.aig, &|inp| (iv >> inp.idx()) & 1 == 1);
            assert_eq!(val, if iv == k as u128 { 99 } else { 10 + k as u128 });
        }
    }
}

#[test]
fn pointer_to_one_of_two_objects() {
    let (mut mem, mut ctx, l) = setup();
    let a = mem.alloc(Object::new(4, ObjKind::Heap, 0, Byte::constant(0))).unwrap();
    let b = mem.alloc(Object::new(4, ObjKind::Heap, 1, Byte::constant(0))).unwrap();
    mem.write(&mut ctx, &l.address_bv(a, 0), &word(1), AigLit::TRUE).unwrap();
    mem.write(&mut ctx, &l.address_bv(b, 0), &word(2), AigLit::TRUE).unwrap();
    let c = ctx.aig.new_input();
    let p = Bv::ite(&mut ctx.aig, c, &l.address_bv(a, 0), &l.address_bv(b, 0));
    let (bytes, inv) = mem.read(&mut ctx, &p, 4).unwrap();
    assert_eq!(inv, AigLit::FALSE);
    let v = bytes_to_bv(&bytes);
    assert_eq!(v.eval(&ctx.aig, &|_| true), 1);
    assert_eq!(v.eval(&ctx.aig, &|_| false), 2);
    // p = c ? &a : NULL is invalid exactly when !c.
    let q = Bv::ite(&mut ctx.aig, c, &l.address_bv(a, 0), &Bv::zero(32));
    let (_, inv) = mem.read(&mut ctx, &q, 4).unwrap();
    assert_eq!(inv, !c);
}

#[test]
fn ids_are_reused_lowest_first() {
    let (mut mem, _, _) = setup();
    let ids: Vec<_> = (0..3).map(|i| mem.alloc(Object::new(1, ObjKind::Heap, i, Byte::uninit())).unwrap()).collect();
    assert_eq!(ids, vec![1, 2, 3]);
    mem.free(2);
    assert_eq!(mem.alloc(Object::new(1, ObjKind::Heap, 9, Byte::uninit())).unwrap(), 2);
    assert_eq!(mem.alloc(Object::new(1, ObjKind::Heap, 9, Byte::uninit())).unwrap(), 4);
}

#[test]
fn clones_share_until_written() {
    let (mut mem, mut ctx, l) = setup();
    let a = mem.alloc(Object::new(256, ObjKind::Heap, 0, Byte::constant(0))).unwrap();
    let copy = mem.clone();
    assert!(mem.shares(&copy, a));
    mem.write(&mut ctx, &l.address_bv(a, 200), &word(5), AigLit::TRUE).unwrap();
    assert!(!mem.shares(&copy, a));
    let (bytes, _) = copy.clone().read(&mut ctx, &l.address_bv(a, 200), 4).unwrap();
    assert_eq!(bytes_to_bv(&bytes).as_const(), Some(0));
}

#[test]
fn escape_reaches_through_stored_pointers_and_stale_bytes_are_reported_until_written() {
    let (mut mem, mut ctx, l) = setup();
    let a = mem.alloc(Object::new(8, ObjKind::Heap, 0, Byte::constant(0))).unwrap();
    let b = mem.alloc(Object::new(4, ObjKind::Heap, 1, Byte::constant(0))).unwrap();
    let c = mem.alloc(Object::new(4, ObjKind::Heap, 2, Byte::constant(0))).unwrap();
    let u = mem.alloc(Object::new(8, ObjKind::Heap, 3, Byte::uninit())).unwrap();
    // a holds a pointer to b at offset 4; c is not reachable; u's bytes were never written.
    mem.write(&mut ctx, &l.address_bv(a, 4), &bv_to_bytes(&l.address_bv(b, 0)), AigLit::TRUE).unwrap();
    assert_eq!(mem.escape(&ctx.aig, &[l.address_bv(a, 0), l.address_bv(u, 0)]), Escape::Bounded);
    let escaped: Vec<ObjId> = mem.objects().filter(|(_, o)| o.escaped).map(|(id, _)| id).collect();
    assert_eq!(escaped, vec![a, b, u]);
    // Reading b (reached through a) is reported; reading c is not; nor is a byte never written.
    mem.read(&mut ctx, &l.address_bv(b, 0), 4).unwrap();
    assert_eq!(ctx.stale_reads, 1);
    mem.read(&mut ctx, &l.address_bv(c, 0), 4).unwrap();
    mem.read(&mut ctx, &l.address_bv(u, 0), 4).unwrap();
    assert_eq!(ctx.stale_reads, 1);
    // Once the path writes a byte, reading it is the path's own value again; its neighbour is not.
    mem.write(&mut ctx, &l.address_bv(a, 0), &word(7), AigLit::TRUE).unwrap();
    mem.read(&mut ctx, &l.address_bv(a, 0), 4).unwrap();
    assert_eq!(ctx.stale_reads, 1);
    mem.read(&mut ctx, &l.address_bv(a, 2), 4).unwrap();
    assert_eq!(ctx.stale_reads, 2);
    // A write where a condition holds keeps the old bytes elsewhere: as good as a read.
    let cond = ctx.aig.new_input();
    mem.write(&mut ctx, &l.address_bv(b, 0), &word(1), cond).unwrap();
    assert_eq!(ctx.stale_reads, 3);
    // A later call (here with no pointer at all) may write what escaped before: stale again.
    // (The bytes of u read above are arbitrary data: as a pointer, an unknown one.)
    assert_eq!(mem.escape(&ctx.aig, &[]), Escape::Unknown);
    mem.read(&mut ctx, &l.address_bv(a, 0), 4).unwrap();
    assert_eq!(ctx.stale_reads, 4);
    // Where writes are arbitrary, a stale byte read becomes a fresh input, then is the path's own.
    ctx.havoc = true;
    let fresh = ctx.fresh.len();
    let (x, _) = mem.read(&mut ctx, &l.address_bv(c, 0), 4).unwrap();
    assert_eq!(bytes_to_bv(&x).as_const(), Some(0));
    let (x, _) = mem.read(&mut ctx, &l.address_bv(a, 0), 4).unwrap();
    assert_eq!(bytes_to_bv(&x).as_const(), None);
    assert_eq!(ctx.fresh.len(), fresh + 4);
    let (y, _) = mem.read(&mut ctx, &l.address_bv(a, 0), 4).unwrap();
    assert_eq!(x, y);
    assert_eq!(ctx.stale_reads, 5);
}

#[test]
fn escape_bounds_what_a_stored_value_may_point_to() {
    let (mut mem, mut ctx, l) = setup();
    let a = mem.alloc(Object::new(4, ObjKind::Heap, 0, Byte::constant(0))).unwrap();
    let b = mem.alloc(Object::new(4, ObjKind::Heap, 1, Byte::constant(0))).unwrap();
    // A choice between two addresses reaches both.
    let c = ctx.aig.new_input();
    let p = Bv::ite(&mut ctx.aig, c, &l.address_bv(a, 0), &l.address_bv(b, 0));
    assert_eq!(mem.escape(&ctx.aig, &[p]), Escape::Bounded);
    assert!(mem.get(a).unwrap().escaped && mem.get(b).unwrap().escaped);
    // Data no address flowed into (arbitrary bits) is an unknown pointer.
    let (mut mem, mut ctx, _) = setup();
    let data = Bv::input(&mut ctx.aig, 32);
    assert_eq!(mem.escape(&ctx.aig, std::slice::from_ref(&data)), Escape::Unknown);
    // An address plus arbitrary data may denote any object: nothing is marked.
    let a = mem.alloc(Object::new(4, ObjKind::Heap, 0, Byte::constant(0))).unwrap();
    let q = l.address_bv(a, 0).add(&mut ctx.aig, &data);
    assert_eq!(mem.escape(&ctx.aig, &[q]), Escape::Unbounded);
    assert!(!mem.get(a).unwrap().escaped);
}
