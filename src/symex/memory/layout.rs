//! The address layout: how an address splits into object id and offset, for each data model
//! (`Layout`).

use super::ObjId;
use crate::base::bits;
use crate::cfront::types::DataModel;
use crate::sat::{AigLit, Bv};

/// How addresses split into object id and offset.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Layout {
    /// Width of a pointer.
    pub ptr_bits: u32,
    /// Width of the offset part.
    pub off_bits: u32,
}

impl Layout {
    /// The layout for data model `dm`.
    pub fn for_model(dm: DataModel) -> Layout {
        match dm {
            DataModel::Ilp32 => Layout { ptr_bits: 32, off_bits: 20 },
            DataModel::Lp64 => Layout { ptr_bits: 64, off_bits: 40 },
        }
    }

    /// Width of the object-id part.
    pub fn obj_bits(self) -> u32 {
        self.ptr_bits - self.off_bits
    }

    /// How many object ids objects may take (id 0 included): all of them, or under LP64 the lower
    /// half, the upper half being wild (`wild_bit`).
    pub fn max_objects(self) -> u64 {
        1 << (self.obj_bits() - self.wild_bit().is_some() as u32)
    }

    /// Under LP64, the id bit of the address's most significant bit: addresses with it set hold no
    /// object, as x86-64 user space holds none above 2^47. They are where *wild* pointers point
    /// (`alias_address_bv`): the address of an offset of fresh memory plus 2^63, which the replay
    /// harness makes as the same sum over the block's real address. Reads and writes there are
    /// invalid, in the executor as on the machine, and adding 2^63 (CIL's `container_of` with a
    /// wrapped offset, say) leads back into the memory, on both.
    pub fn wild_bit(self) -> Option<u32> {
        (self.ptr_bits == 64).then(|| self.obj_bits() - 1)
    }

    /// The address of offset `off` of object `obj`, plus 2^63 where `wild` holds (LP64 only, see
    /// `wild_bit`; under ILP32 `wild` is ignored): what an unknown pointer read from fresh memory
    /// `obj` is when it aliases that memory.
    pub fn alias_address_bv(self, obj: ObjId, off: &Bv, wild: AigLit) -> Bv {
        let mut id = Bv::constant(obj as u128, self.obj_bits()).bits().to_vec();
        if let Some(bit) = self.wild_bit() {
            id[bit as usize] = wild;
        }
        Bv::from_bits(id).concat(off)
    }

    /// The largest object size.
    pub fn max_size(self) -> u64 {
        1 << self.off_bits
    }

    /// Where an unknown pointer points in its fresh (`Lazy`) object: the middle, so that the
    /// `container_of` idiom (subtracting a member's offset) stays inside the object.
    pub fn lazy_offset(self) -> u64 {
        1 << (self.off_bits - 1)
    }

    /// The address of byte `off` of object `obj`.
    pub fn address(self, obj: ObjId, off: u64) -> u128 {
        ((obj as u128) << self.off_bits) | off as u128
    }

    /// The address of byte `off` of object `obj` as a constant bit-vector.
    pub fn address_bv(self, obj: ObjId, off: u64) -> Bv {
        Bv::constant(self.address(obj, off), self.ptr_bits)
    }

    /// Object id and offset of the address `addr`.
    pub fn split(self, addr: &Bv) -> (Bv, Bv) {
        (addr.extract(self.ptr_bits - 1, self.off_bits), addr.extract(self.off_bits - 1, 0))
    }

    /// Object id and offset of a concrete address.
    pub fn split_const(self, addr: u128) -> (ObjId, u64) {
        ((addr >> self.off_bits) as ObjId, bits::truncate(addr, self.off_bits) as u64)
    }
}
