//! Initializers as the symbolic executor (`exec`) and the concrete interpreter (`interp`) both walk
//! them: each leaf of a list stored at the sub-object its path names.
//!
//! Only the structure is shared, and it is the type layout's: where a sub-object lies
//! (`sub_object`), the bytes a string literal gives a character array (`string_bytes`) and the walk
//! over the leaves (`Initialize::initialize`). How an address is computed and a value stored stays
//! each engine's own, so that the interpreter remains an independent check of the executor.

use crate::cfront::ir::{Expr, ExprKind, Init, InitStep, Program, VarId};
use crate::cfront::types::{TypeId, TypeKind, Types};

/// Where a sub-object lies in its object.
pub(super) struct SubObject {
    /// The byte offset of its storage (of the unit that holds it, for a bit-field).
    pub offset: u64,
    /// Its type.
    pub ty: TypeId,
    /// For a bit-field: its bit offset in the unit and its width (`Field::bitfield`).
    pub bitfield: Option<(u32, u32)>,
}

/// An engine that initializes objects: how it finds the place of a variable or of a sub-object and
/// stores a value there; the walk over an initializer's leaves (`initialize`) is the same for every
/// engine.
pub(super) trait Initialize {
    /// Where an object is: its address (symbolic or concrete) and type.
    type Place: Clone;
    /// Why an initialization stops.
    type Error;

    /// The place of variable `v`'s object.
    fn var_place(&mut self, v: VarId) -> Result<Self::Place, Self::Error>;

    /// The place of sub-object `step` of the object at `place`.
    fn sub_place(&mut self, place: &Self::Place, step: InitStep) -> Result<Self::Place, Self::Error>;

    /// Initializes the object at `place` with `x`.
    fn init_place(&mut self, place: &Self::Place, x: &Expr) -> Result<(), Self::Error>;

    /// Initializes the object of variable `v` with `init`.
    fn init_var(&mut self, v: VarId, init: &Init) -> Result<(), Self::Error> {
        let place = self.var_place(v)?;
        self.initialize(&place, init)
    }

    /// Initializes the object at `place` with `init`: with its expression, or with each leaf of its
    /// list in order, at the sub-object the leaf's path names.
    fn initialize(&mut self, place: &Self::Place, init: &Init) -> Result<(), Self::Error> {
        match init {
            Init::Expr(x) => self.init_place(place, x),
            Init::List(leaves) => {
                for leaf in leaves {
                    let mut p = place.clone();
                    for step in &leaf.path {
                        p = self.sub_place(&p, *step)?;
                    }
                    self.init_place(&p, &leaf.value)?;
                }
                Ok(())
            }
        }
    }
}

/// Sub-object `step` of an object of type `ty`; the error says why there is none.
pub(super) fn sub_object(types: &Types, ty: TypeId, step: InitStep) -> Result<SubObject, &'static str> {
    match (step, types.kind(ty)) {
        (InitStep::Index(i), TypeKind::Array(elem, _)) => {
            let size = types.size_of(*elem).ok_or("array of incomplete type")?;
            Ok(SubObject { offset: i * size, ty: *elem, bitfield: None })
        }
        (InitStep::Field(i), TypeKind::Record(r)) => {
            let fields = types.record(*r).fields.as_ref();
            let field = fields.and_then(|fs| fs.get(i)).ok_or("initializer of an incomplete struct")?;
            Ok(SubObject { offset: field.offset, ty: field.ty, bitfield: field.bitfield })
        }
        _ => Err("initializer that does not fit its object"),
    }
}

/// The bytes with which `x` initializes an object of type `ty` when `x` is a string literal and
/// `ty` an array: the literal's bytes, cut or padded with zeros to the array's size.
pub(super) fn string_bytes(prog: &Program, ty: TypeId, x: &Expr) -> Option<Vec<u8>> {
    let (TypeKind::Array(..), ExprKind::Str(s)) = (prog.types.kind(ty), &x.kind) else { return None };
    let size = prog.types.size_of(ty).unwrap_or(0) as usize;
    let data = &prog.strings[s.idx()];
    Some((0..size).map(|i| data.get(i).copied().unwrap_or(0)).collect())
}
