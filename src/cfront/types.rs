//! C types: interned, with sizes and layouts under one data model (ILP32 or LP64).
//!
//! Invariant: a `TypeId` is valid for the `Types` table that made it; identical types get identical ids
//! (records are identified by their `RecordId`, not by their fields).

use rustc_hash::FxHashMap as HashMap;

use crate::base::{bits, fp};
use crate::id_type;

id_type! {
    /// An interned type.
    pub struct TypeId;
}

id_type! {
    /// A struct or union declaration.
    pub struct RecordId;
}

/// Integer widths of the target.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum DataModel {
    /// 32-bit: `int`, `long` and pointers are 32 bits (CPAchecker's `LINUX32`, gcc `-m32`).
    #[default]
    Ilp32,
    /// 64-bit: `long` and pointers are 64 bits (`LINUX64`, gcc `-m64`).
    Lp64,
}

impl DataModel {
    /// Size of a pointer in bytes.
    pub fn pointer_size(self) -> u64 {
        match self {
            DataModel::Ilp32 => 4,
            DataModel::Lp64 => 8,
        }
    }

    /// The SV-COMP name of the model (`data_model` of a task definition): `ILP32` or `LP64`.
    pub fn name(self) -> &'static str {
        match self {
            DataModel::Ilp32 => "ILP32",
            DataModel::Lp64 => "LP64",
        }
    }

    /// Reads an SV-COMP name (`ILP32`, `LP64`; case and surrounding white space ignored).
    pub fn from_name(s: &str) -> Option<DataModel> {
        [DataModel::Ilp32, DataModel::Lp64].into_iter().find(|m| m.name().eq_ignore_ascii_case(s.trim()))
    }

    /// vcov's command-line flag: `--32` or `--64`.
    pub fn flag(self) -> &'static str {
        match self {
            DataModel::Ilp32 => "--32",
            DataModel::Lp64 => "--64",
        }
    }

    /// gcc's flag: `-m32` or `-m64` (CPAchecker's `getStandardCCompilerArchitectureArgument`).
    pub fn gcc_flag(self) -> &'static str {
        match self {
            DataModel::Ilp32 => "-m32",
            DataModel::Lp64 => "-m64",
        }
    }

    /// gcc's flags for the floating-point semantics vcov models: IEEE binary32 and binary64 with
    /// every operation rounded to its type, as SSE computes, in the rounding mode the program sets at
    /// run time. The x86-64 ABI uses SSE already; for `-m32`, gcc would otherwise compute in the
    /// x87's 80-bit registers (`-msse2 -mfpmath=sse`, as CBMC and CPAchecker model SV-COMP's ILP32
    /// tasks). `-frounding-math`: gcc would otherwise fold `1.0 / 3.0` to nearest at compile time
    /// whatever `fesetround` set.
    pub fn gcc_float_flags(self) -> &'static [&'static str] {
        match self {
            DataModel::Ilp32 => &["-msse2", "-mfpmath=sse", "-frounding-math"],
            DataModel::Lp64 => &["-frounding-math"],
        }
    }

    /// The architecture as witnesses and Test-Comp's `metadata.xml` spell it: `32bit` or `64bit`.
    pub fn architecture(self) -> &'static str {
        match self {
            DataModel::Ilp32 => "32bit",
            DataModel::Lp64 => "64bit",
        }
    }

    /// Reads an architecture (`32bit`, `64bit`; surrounding white space ignored).
    pub fn from_architecture(s: &str) -> Option<DataModel> {
        [DataModel::Ilp32, DataModel::Lp64].into_iter().find(|m| m.architecture() == s.trim())
    }
}

/// Integer conversion rank; `Bool` is `_Bool`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum IntRank {
    /// `_Bool`
    Bool,
    /// `char`
    Char,
    /// `short`
    Short,
    /// `int`
    Int,
    /// `long`
    Long,
    /// `long long`
    LongLong,
    /// `__int128`
    Int128,
}

/// An integer type: rank and signedness. Plain `char` is signed (as on x86).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct IntType {
    /// Conversion rank.
    pub rank: IntRank,
    /// Whether values are two's-complement signed.
    pub signed: bool,
}

impl IntType {
    /// `int`
    pub const INT: IntType = IntType { rank: IntRank::Int, signed: true };
    /// `unsigned int`
    pub const UINT: IntType = IntType { rank: IntRank::Int, signed: false };
    /// `long`
    pub const LONG: IntType = IntType { rank: IntRank::Long, signed: true };
    /// `unsigned long`
    pub const ULONG: IntType = IntType { rank: IntRank::Long, signed: false };
    /// `long long`
    pub const LLONG: IntType = IntType { rank: IntRank::LongLong, signed: true };
    /// `unsigned long long`
    pub const ULLONG: IntType = IntType { rank: IntRank::LongLong, signed: false };
    /// `char`
    pub const CHAR: IntType = IntType { rank: IntRank::Char, signed: true };
    /// `_Bool`
    pub const BOOL: IntType = IntType { rank: IntRank::Bool, signed: false };

    /// Width in bits under `dm`.
    pub fn bits(self, dm: DataModel) -> u32 {
        match self.rank {
            IntRank::Bool | IntRank::Char => 8,
            IntRank::Short => 16,
            IntRank::Int => 32,
            IntRank::Long => match dm {
                DataModel::Ilp32 => 32,
                DataModel::Lp64 => 64,
            },
            IntRank::LongLong => 64,
            IntRank::Int128 => 128,
        }
    }

    /// Smallest value.
    pub fn min(self, dm: DataModel) -> i128 {
        if self.signed {
            bits::min_signed(self.bits(dm))
        } else {
            0
        }
    }

    /// Largest value.
    pub fn max(self, dm: DataModel) -> i128 {
        match (self.rank, self.signed) {
            (IntRank::Bool, _) => 1,
            (_, true) => bits::max_signed(self.bits(dm)),
            (_, false) => ((1u128 << self.bits(dm)) - 1) as i128,
        }
    }

    /// `v` converted to this type (C conversion: wraparound modulo 2^bits; `_Bool` is `v != 0`).
    pub fn wrap(self, v: i128, dm: DataModel) -> i128 {
        if self.rank == IntRank::Bool {
            return (v != 0) as i128;
        }
        let width = self.bits(dm);
        if self.signed {
            bits::sign_extend(v as u128, width)
        } else {
            bits::truncate(v as u128, width) as i128
        }
    }

    /// The C spelling, e.g. `unsigned long`.
    pub fn c_name(self) -> &'static str {
        match (self.rank, self.signed) {
            (IntRank::Bool, _) => "_Bool",
            (IntRank::Char, true) => "char",
            (IntRank::Char, false) => "unsigned char",
            (IntRank::Short, true) => "short",
            (IntRank::Short, false) => "unsigned short",
            (IntRank::Int, true) => "int",
            (IntRank::Int, false) => "unsigned int",
            (IntRank::Long, true) => "long",
            (IntRank::Long, false) => "unsigned long",
            (IntRank::LongLong, true) => "long long",
            (IntRank::LongLong, false) => "unsigned long long",
            (IntRank::Int128, true) => "__int128",
            (IntRank::Int128, false) => "unsigned __int128",
        }
    }
}

/// A floating type. `float` and `double` are IEEE 754 binary32 and binary64 (`base::fp`); vcov
/// does not model the values of `long double` (x87's 80-bit format) and `_Float128`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FloatKind {
    /// `float`
    Float,
    /// `double`
    Double,
    /// `long double`
    LongDouble,
    /// `_Float128` (gcc's `__float128`): 16 bytes, aligned to 16 under both data models.
    Float128,
}

impl FloatKind {
    /// The IEEE format of the type's values, `None` for the types vcov does not model.
    pub fn format(self) -> Option<fp::Format> {
        match self {
            FloatKind::Float => Some(fp::Format::Single),
            FloatKind::Double => Some(fp::Format::Double),
            FloatKind::LongDouble | FloatKind::Float128 => None,
        }
    }
}

/// The shape of a function type.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct FuncType {
    /// Return type.
    pub ret: TypeId,
    /// Parameter types after adjustment (arrays and functions to pointers).
    pub params: Vec<TypeId>,
    /// `...` at the end.
    pub variadic: bool,
    /// Declared without a prototype (`int f()`): any arguments are accepted.
    pub unprototyped: bool,
}

/// What a type is.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum TypeKind {
    /// `void`
    Void,
    /// An integer type (enums are integers too).
    Int(IntType),
    /// A floating type.
    Float(FloatKind),
    /// Pointer to the target type.
    Pointer(TypeId),
    /// Array of an element type; `None` when the length is unknown (incomplete or flexible).
    Array(TypeId, Option<u64>),
    /// A function type.
    Func(FuncType),
    /// A struct or union.
    Record(RecordId),
}

/// Struct or union.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RecordKind {
    /// `struct`
    Struct,
    /// `union`
    Union,
}

/// One member of a struct or union.
#[derive(Clone, Debug)]
pub struct Field {
    /// Name; `None` for anonymous members (their fields are reachable through them).
    pub name: Option<String>,
    /// Declared type.
    pub ty: TypeId,
    /// Byte offset of the storage unit that holds the field.
    pub offset: u64,
    /// For bit-fields: bit offset inside the unit at `offset` (little-endian) and width in bits.
    pub bitfield: Option<(u32, u32)>,
}

/// The bytes a bit-field at `bit` of its unit (`Field::bitfield`) of `width` bits spans: fewer than its
/// type's size in the natural layout, more where a packed layout lets it cross bytes.
pub fn bitfield_bytes(bit: u32, width: u32) -> u64 {
    (bit + width).div_ceil(8) as u64
}

/// A member of a record being completed (`Types::complete_record`).
#[derive(Clone, Debug)]
pub struct Member {
    /// Name; `None` for anonymous members and unnamed bit-fields.
    pub name: Option<String>,
    /// Declared type.
    pub ty: TypeId,
    /// Bit-field width.
    pub width: Option<u32>,
    /// `__attribute__((packed))` on the member.
    pub packed: bool,
    /// `__attribute__((aligned(n)))` on the member, in bytes.
    pub aligned: Option<u64>,
}

impl Member {
    /// A member without attributes.
    pub fn new(name: Option<String>, ty: TypeId, width: Option<u32>) -> Self {
        Member { name, ty, width, packed: false, aligned: None }
    }
}

/// What decides a record's layout besides its members.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RecordLayout {
    /// `__attribute__((packed))` on the record. [default: false]
    pub packed: bool,
    /// The `#pragma pack(n)` in effect where the record is completed: the largest member alignment,
    /// in bytes (1, 2, 4, 8 or 16). [default: none]
    pub pack: Option<u64>,
    /// `__attribute__((aligned(n)))` on the record: the smallest alignment, in bytes. [default: none]
    pub aligned: Option<u64>,
}

/// A struct or union declaration with its layout once complete.
#[derive(Clone, Debug)]
pub struct Record {
    /// Struct or union.
    pub kind: RecordKind,
    /// Tag, if any.
    pub tag: Option<String>,
    /// Members in declaration order; `None` while incomplete.
    pub fields: Option<Vec<Field>>,
    /// Size in bytes (0 while incomplete).
    pub size: u64,
    /// Alignment in bytes.
    pub align: u64,
}

/// The type table of one program under one data model.
#[derive(Clone, Debug)]
pub struct Types {
    dm: DataModel,
    kinds: Vec<TypeKind>,
    intern: HashMap<TypeKind, TypeId>,
    records: Vec<Record>,
}

impl Types {
    /// An empty table for `dm`, with the basic types pre-interned.
    pub fn new(dm: DataModel) -> Types {
        let mut t = Types { dm, kinds: Vec::new(), intern: HashMap::default(), records: Vec::new() };
        t.intern(TypeKind::Void);
        t.intern(TypeKind::Int(IntType::INT));
        t
    }

    /// The data model the sizes refer to.
    pub fn data_model(&self) -> DataModel {
        self.dm
    }

    /// The id of `kind`, created on first use.
    pub fn intern(&mut self, kind: TypeKind) -> TypeId {
        if let Some(&id) = self.intern.get(&kind) {
            return id;
        }
        let id = TypeId::from_idx(self.kinds.len());
        self.kinds.push(kind.clone());
        self.intern.insert(kind, id);
        id
    }

    /// What `ty` is.
    pub fn kind(&self, ty: TypeId) -> &TypeKind {
        &self.kinds[ty.idx()]
    }

    /// `void`
    pub fn void(&mut self) -> TypeId {
        self.intern(TypeKind::Void)
    }

    /// The integer type `it`.
    pub fn int(&mut self, it: IntType) -> TypeId {
        self.intern(TypeKind::Int(it))
    }

    /// Pointer to `target`.
    pub fn pointer(&mut self, target: TypeId) -> TypeId {
        self.intern(TypeKind::Pointer(target))
    }

    /// The integer type of `ty`, if it is one.
    pub fn as_int(&self, ty: TypeId) -> Option<IntType> {
        match self.kind(ty) {
            TypeKind::Int(it) => Some(*it),
            _ => None,
        }
    }

    /// The pointed-to type of a pointer.
    pub fn pointee(&self, ty: TypeId) -> Option<TypeId> {
        match self.kind(ty) {
            TypeKind::Pointer(t) => Some(*t),
            _ => None,
        }
    }

    /// Whether `ty` is an integer or pointer (scalar, not floating).
    pub fn is_int_or_pointer(&self, ty: TypeId) -> bool {
        matches!(self.kind(ty), TypeKind::Int(_) | TypeKind::Pointer(_))
    }

    /// Whether `ty` is a scalar type (arithmetic or pointer).
    pub fn is_scalar(&self, ty: TypeId) -> bool {
        matches!(self.kind(ty), TypeKind::Int(_) | TypeKind::Pointer(_) | TypeKind::Float(_))
    }

    /// Adds an incomplete record.
    pub fn new_record(&mut self, kind: RecordKind, tag: Option<String>) -> RecordId {
        let id = RecordId::from_idx(self.records.len());
        self.records.push(Record { kind, tag, fields: None, size: 0, align: 1 });
        id
    }

    /// The record `id`.
    pub fn record(&self, id: RecordId) -> &Record {
        &self.records[id.idx()]
    }

    /// Completes a record with its members and computes its layout the way gcc does on x86 (System V
    /// ABI), including bit-fields, `#pragma pack` and the `packed` and `aligned` attributes.
    pub fn complete_record(&mut self, id: RecordId, members: Vec<Member>, layout: RecordLayout) {
        let kind = self.records[id.idx()].kind;
        let mut fields = Vec::with_capacity(members.len());
        let mut size_bits: u64 = 0; // running offset in bits (struct) or max size (union)
        let mut align: u64 = 1;
        for Member { name, ty, width, packed, aligned } in members {
            let fsize = self.size_of(ty).unwrap_or(0);
            let packed = packed || layout.packed;
            // gcc: `packed` lowers the alignment to 1, `aligned(n)` raises it, `#pragma pack(n)`
            // caps the result (also a user-given alignment).
            let mut falign = if packed { 1 } else { self.align_of(ty) };
            if let Some(a) = aligned {
                falign = falign.max(a);
            }
            if let Some(n) = layout.pack {
                falign = falign.min(n);
            }
            match width {
                Some(w) => {
                    // A bit-field is placed in the storage unit of its declared type that holds the
                    // current bit position, unless it would straddle the unit's end; packed and
                    // `#pragma pack` layouts place it at the next bit (it may straddle bytes).
                    let unit_bits = fsize * 8;
                    let pos = if kind == RecordKind::Union { 0 } else { size_bits };
                    if w == 0 {
                        if kind == RecordKind::Struct && unit_bits > 0 {
                            size_bits = size_bits.div_ceil(unit_bits) * unit_bits;
                        }
                        continue;
                    }
                    let units = !packed && layout.pack.is_none() && unit_bits > 0;
                    let mut start = pos;
                    if units && (start % unit_bits) + w as u64 > unit_bits {
                        start = start.div_ceil(unit_bits) * unit_bits;
                    }
                    let unit_off = if units { (start / unit_bits) * fsize } else { start / 8 };
                    let bit_in_unit = (start - unit_off * 8) as u32;
                    fields.push(Field { name, ty, offset: unit_off, bitfield: Some((bit_in_unit, w)) });
                    // Unnamed bit-fields do not affect the alignment of the record (gcc).
                    if fields.last().is_some_and(|f| f.name.is_some()) {
                        align = align.max(falign);
                    }
                    let end = start + w as u64;
                    if kind == RecordKind::Union {
                        size_bits = size_bits.max(end);
                    } else {
                        size_bits = end;
                    }
                }
                None => {
                    let off_bits =
                        if kind == RecordKind::Union { 0 } else { size_bits.div_ceil(falign * 8) * falign * 8 };
                    fields.push(Field { name, ty, offset: off_bits / 8, bitfield: None });
                    align = align.max(falign);
                    let end = off_bits + fsize * 8;
                    size_bits = size_bits.max(end);
                }
            }
        }
        if let Some(a) = layout.aligned {
            align = align.max(a);
        }
        let size = size_bits.div_ceil(8).div_ceil(align) * align;
        let r = &mut self.records[id.idx()];
        r.fields = Some(fields);
        r.size = size;
        r.align = align;
    }

    /// Size in bytes; `None` for incomplete types, `void` and functions.
    pub fn size_of(&self, ty: TypeId) -> Option<u64> {
        match self.kind(ty) {
            TypeKind::Void | TypeKind::Func(_) => None,
            TypeKind::Int(it) => Some(it.bits(self.dm) as u64 / 8),
            TypeKind::Float(FloatKind::Float) => Some(4),
            TypeKind::Float(FloatKind::Double) => Some(8),
            TypeKind::Float(FloatKind::LongDouble) => Some(if self.dm == DataModel::Ilp32 { 12 } else { 16 }),
            TypeKind::Float(FloatKind::Float128) => Some(16),
            TypeKind::Pointer(_) => Some(self.dm.pointer_size()),
            TypeKind::Array(elem, Some(n)) => self.size_of(*elem).map(|s| s * n),
            TypeKind::Array(_, None) => None,
            TypeKind::Record(r) => {
                let rec = self.record(*r);
                rec.fields.as_ref().map(|_| rec.size)
            }
        }
    }

    /// Alignment in bytes inside a struct (gcc on i386 aligns `long long` and `double` to 4).
    pub fn align_of(&self, ty: TypeId) -> u64 {
        match self.kind(ty) {
            TypeKind::Void | TypeKind::Func(_) => 1,
            TypeKind::Int(it) => {
                let s = it.bits(self.dm) as u64 / 8;
                if self.dm == DataModel::Ilp32 {
                    s.min(4)
                } else {
                    s
                }
            }
            TypeKind::Float(k) => match (k, self.dm) {
                (FloatKind::Float, _) => 4,
                (FloatKind::Float128, _) => 16,
                (_, DataModel::Ilp32) => 4,
                (FloatKind::Double, DataModel::Lp64) => 8,
                (FloatKind::LongDouble, DataModel::Lp64) => 16,
            },
            TypeKind::Pointer(_) => self.dm.pointer_size(),
            TypeKind::Array(elem, _) => self.align_of(*elem),
            TypeKind::Record(r) => self.record(*r).align,
        }
    }

    /// The member called `name` of record type `ty`, looking through anonymous members.
    /// Returns the path of field indices and the member's type.
    pub fn find_field(&self, rec: RecordId, name: &str) -> Option<(Vec<usize>, TypeId)> {
        let fields = self.record(rec).fields.as_ref()?;
        for (i, f) in fields.iter().enumerate() {
            match &f.name {
                Some(n) if n == name => return Some((vec![i], f.ty)),
                None => {
                    if let TypeKind::Record(inner) = self.kind(f.ty) {
                        if let Some((mut path, ty)) = self.find_field(*inner, name) {
                            path.insert(0, i);
                            return Some((path, ty));
                        }
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// The IEEE format of a `float` or `double` type; `None` for every other type (`long double`
    /// included, which vcov does not model).
    pub fn float_format(&self, ty: TypeId) -> Option<fp::Format> {
        match self.kind(ty) {
            TypeKind::Float(k) => k.format(),
            _ => None,
        }
    }

    /// A readable rendering of `ty` for messages and dumps (`int *`, `struct s`, `int [4]`).
    pub fn display(&self, ty: TypeId) -> String {
        match self.kind(ty) {
            TypeKind::Void => "void".into(),
            TypeKind::Int(it) => it.c_name().into(),
            TypeKind::Float(FloatKind::Float) => "float".into(),
            TypeKind::Float(FloatKind::Double) => "double".into(),
            TypeKind::Float(FloatKind::LongDouble) => "long double".into(),
            TypeKind::Float(FloatKind::Float128) => "_Float128".into(),
            TypeKind::Pointer(t) => format!("{} *", self.display(*t)),
            TypeKind::Array(t, Some(n)) => format!("{} [{n}]", self.display(*t)),
            TypeKind::Array(t, None) => format!("{} []", self.display(*t)),
            TypeKind::Func(f) => {
                let ps: Vec<String> = f.params.iter().map(|p| self.display(*p)).collect();
                format!("{} ({})", self.display(f.ret), ps.join(", "))
            }
            TypeKind::Record(r) => {
                let rec = self.record(*r);
                let kw = if rec.kind == RecordKind::Struct { "struct" } else { "union" };
                match &rec.tag {
                    Some(t) => format!("{kw} {t}"),
                    None => format!("{kw} <anonymous#{}>", r.0),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_wrap_and_ranges() {
        let dm = DataModel::Ilp32;
        assert_eq!(IntType::INT.wrap(1 << 31, dm), -(1 << 31));
        assert_eq!(IntType::UINT.wrap(-1, dm), 0xffff_ffff);
        assert_eq!(IntType::CHAR.wrap(200, dm), -56);
        assert_eq!(IntType::BOOL.wrap(42, dm), 1);
        assert_eq!(IntType::LONG.bits(DataModel::Ilp32), 32);
        assert_eq!(IntType::LONG.bits(DataModel::Lp64), 64);
        assert_eq!(IntType::ULONG.max(DataModel::Lp64), u64::MAX as i128);
        assert_eq!(IntType::INT.min(dm), i32::MIN as i128);
    }

    #[test]
    fn struct_layout_matches_gcc() {
        for (dm, expect_size, expect_off) in [(DataModel::Ilp32, 16, 4), (DataModel::Lp64, 24, 8)] {
            let mut t = Types::new(dm);
            let c = t.int(IntType::CHAR);
            let l = t.int(IntType::LLONG);
            let i = t.int(IntType::INT);
            let r = t.new_record(RecordKind::Struct, Some("s".into()));
            // struct s { char c; long long l; int i; };
            t.complete_record(
                r,
                vec![
                    Member::new(Some("c".into()), c, None),
                    Member::new(Some("l".into()), l, None),
                    Member::new(Some("i".into()), i, None),
                ],
                RecordLayout::default(),
            );
            let rt = t.intern(TypeKind::Record(r));
            assert_eq!(t.size_of(rt), Some(expect_size), "{dm:?}");
            assert_eq!(t.record(r).fields.as_ref().unwrap()[1].offset, expect_off, "{dm:?}");
        }
    }

    #[test]
    fn bitfields_share_a_unit() {
        let mut t = Types::new(DataModel::Lp64);
        let u = t.int(IntType::UINT);
        let r = t.new_record(RecordKind::Struct, None);
        // struct { unsigned a:3, b:5, c:30; }
        t.complete_record(
            r,
            vec![
                Member::new(Some("a".into()), u, Some(3)),
                Member::new(Some("b".into()), u, Some(5)),
                Member::new(Some("c".into()), u, Some(30)),
            ],
            RecordLayout::default(),
        );
        let f = t.record(r).fields.clone().unwrap();
        assert_eq!((f[0].offset, f[0].bitfield), (0, Some((0, 3))));
        assert_eq!((f[1].offset, f[1].bitfield), (0, Some((3, 5))));
        assert_eq!((f[2].offset, f[2].bitfield), (4, Some((0, 30))));
        assert_eq!(t.record(r).size, 8);
    }

    #[test]
    fn union_size_is_max() {
        let mut t = Types::new(DataModel::Ilp32);
        let c = t.int(IntType::CHAR);
        let arr = t.intern(TypeKind::Array(c, Some(5)));
        let i = t.int(IntType::INT);
        let r = t.new_record(RecordKind::Union, None);
        t.complete_record(
            r,
            vec![Member::new(Some("a".into()), arr, None), Member::new(Some("i".into()), i, None)],
            RecordLayout::default(),
        );
        assert_eq!(t.record(r).size, 8);
        assert_eq!(t.record(r).align, 4);
    }
}
