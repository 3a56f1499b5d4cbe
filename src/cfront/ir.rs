//! The typed intermediate representation of a C translation unit.
//!
//! It keeps the statement structure of the source (the CFA builder needs it to reproduce CPAchecker's
//! edges) and types every expression with the implicit conversions made explicit (`Cast { implicit: true }`,
//! `Decay`), so that later stages never redo C's typing rules.
//!
//! Invariant: every `Expr` carries its type after conversions; an implicit conversion is its own node.
//! Invariant: spans point into the program's `SourceFile` (the original text, comments included).

use super::types::{DataModel, RecordId, TypeId, Types};
use crate::base::{SourceFile, Span};
use crate::id_type;

id_type! {
    /// A variable: global, local, parameter or block-scope static.
    pub struct VarId;
}
id_type! {
    /// A function, declared or defined.
    pub struct FuncId;
}
id_type! {
    /// A string literal's bytes.
    pub struct StrId;
}

/// A whole program after lowering.
#[derive(Clone, Debug)]
pub struct Program {
    /// The source text.
    pub file: SourceFile,
    /// Type table (sizes follow `types.data_model()`).
    pub types: Types,
    /// All variables.
    pub vars: Vec<Var>,
    /// All functions, declared or defined, in order of first appearance.
    pub funcs: Vec<Func>,
    /// String literal contents, NUL-terminated.
    pub strings: Vec<Vec<u8>>,
    /// File-scope declarations in source order, one entry per declared entity.
    pub globals: Vec<GlobalDecl>,
    /// Block-scope statics and block-scope function prototypes, appended after the globals by CPAchecker.
    pub late_globals: Vec<GlobalDecl>,
    /// The C library's models (`libmodels::LIBC`) once linked (`cfront::link_library`): their text,
    /// placed after the program's, so that a span at or past `file`'s end is one of theirs.
    pub library: Option<SourceFile>,
    /// The linked library's variables (its tables), with their initializers: storage of its own,
    /// which no edge of the program declares (`Cfa::library_init`).
    pub library_vars: Vec<(VarId, Option<Init>)>,
}

impl Program {
    /// The bytes of the string literal `e` is (decayed to a pointer, behind implicit conversions),
    /// its terminating zero included; `None` when `e` is no string literal.
    pub fn string_literal(&self, e: &Expr) -> Option<&[u8]> {
        match &e.strip_implicit().kind {
            ExprKind::Decay(s) => match s.kind {
                ExprKind::Str(id) => Some(&self.strings[id.idx()]),
                _ => None,
            },
            _ => None,
        }
    }

    /// The data model the types were laid out for.
    pub fn data_model(&self) -> DataModel {
        self.types.data_model()
    }

    /// The variable `v`.
    pub fn var(&self, v: VarId) -> &Var {
        &self.vars[v.idx()]
    }

    /// The function `f`.
    pub fn func(&self, f: FuncId) -> &Func {
        &self.funcs[f.idx()]
    }

    /// The function called `name`.
    pub fn func_by_name(&self, name: &str) -> Option<FuncId> {
        self.funcs.iter().position(|f| f.name == name).map(FuncId::from_idx)
    }

    /// The source text of `span` (the program's, or the linked library's).
    pub fn text(&self, span: Span) -> &str {
        match &self.library {
            Some(lib) if self.in_library(span) => lib.slice(span),
            _ => self.file.slice(span),
        }
    }

    /// Whether `span` lies in the linked library's text rather than the program's.
    pub fn in_library(&self, span: Span) -> bool {
        self.library.is_some() && span.lo as usize > self.file.text().len()
    }

    /// The library's definition of `name` (`cfront::link_library`), if it is linked and has one.
    pub fn library_def(&self, name: &str) -> Option<FuncId> {
        self.funcs.iter().position(|f| f.library && f.body.is_some() && f.name == name).map(FuncId::from_idx)
    }
}

/// Where a variable lives.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum VarKind {
    /// File scope.
    Global,
    /// Block scope, automatic storage, in the given function.
    Local(FuncId),
    /// Parameter number `.1` of the function.
    Param(FuncId, usize),
    /// Block scope with static storage.
    StaticLocal(FuncId),
}

/// A variable.
#[derive(Clone, Debug)]
pub struct Var {
    /// Source name.
    pub name: String,
    /// The name CPAchecker gives it: `x__1` for a re-declared local, `static__f__x` for a static local.
    pub cpa_name: String,
    /// Declared type.
    pub ty: TypeId,
    /// Storage.
    pub kind: VarKind,
    /// Declarator span.
    pub span: Span,
    /// Declared `extern` without a definition in this file.
    pub is_extern: bool,
}

/// A function.
#[derive(Clone, Debug)]
pub struct Func {
    /// Name.
    pub name: String,
    /// Function type.
    pub ty: TypeId,
    /// Parameters (only for definitions).
    pub params: Vec<VarId>,
    /// The body, if the function is defined here.
    pub body: Option<Stmt>,
    /// Span of the whole definition, or of the first declaration.
    pub span: Span,
    /// CPAchecker's text for the definition header: declaration specifiers, one space, declarator.
    pub header_text: Option<String>,
    /// Whether the address of the function is taken (a candidate for calls through pointers).
    pub address_taken: bool,
    /// The assembler name a declaration gives the function (`scanf(...) __asm__ ("__isoc99_scanf")`,
    /// as glibc's `<stdio.h>` has it): the symbol the compiled program calls.
    pub asm_label: Option<String>,
    /// Whether the program calls the function without declaring it anywhere (C89's implicit
    /// `int f()`): nothing says what it is, often a macro whose header was not included (`assert`).
    pub implicit: bool,
    /// Whether it belongs to the linked C library (`cfront::link_library`), not to the program: a
    /// model's definition, or a function the models declare.
    pub library: bool,
}

/// A file-scope declaration entry as CPAchecker lists it.
#[derive(Clone, Debug)]
pub enum GlobalDecl {
    /// A variable declaration or definition.
    Var {
        /// The variable.
        var: VarId,
        /// Initializer.
        init: Option<Init>,
        /// The whole declaration, `;` included.
        span: Span,
    },
    /// `typedef`, struct/union/enum definition or forward declaration.
    Type {
        /// The whole declaration, `;` included.
        span: Span,
        /// The struct, union or enum tag this entry declares (not for typedefs), and whether it
        /// defines it (rather than only naming it, as in `struct s;`).
        tag: Option<(TagRef, bool)>,
    },
    /// A function prototype.
    FuncProto {
        /// The function.
        func: FuncId,
        /// The whole declaration, `;` included.
        span: Span,
        /// Parameter names as written in this prototype.
        params: Vec<Option<String>>,
    },
    /// A function definition (only its header is an edge).
    FuncDef {
        /// The function.
        func: FuncId,
    },
}

/// The identity of a struct, union or enum tag.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum TagRef {
    /// A struct or union.
    Record(RecordId),
    /// An enum, numbered in order of first appearance.
    Enum(u32),
}

/// A statement with its source span.
#[derive(Clone, Debug)]
pub struct Stmt {
    /// What it is.
    pub kind: StmtKind,
    /// Its source span (for labelled statements the label is included).
    pub span: Span,
}

/// Statement kinds, mirroring C's.
#[derive(Clone, Debug)]
pub enum StmtKind {
    /// `{ ... }`
    Block(Vec<Stmt>),
    /// A local declaration: one entry per CPAchecker declaration edge.
    Decl(Vec<LocalEntry>),
    /// A block-scope function prototype, `extern` or `static` declaration: no edge here (CPAchecker lists
    /// it with the globals).
    NoEdgeDecl,
    /// An expression statement.
    Expr(Expr),
    /// `;`
    Empty,
    /// `if (cond) then else`
    If {
        /// Condition.
        cond: Expr,
        /// Then branch.
        then_: Box<Stmt>,
        /// Else branch.
        else_: Option<Box<Stmt>>,
    },
    /// `while (cond) body`
    While {
        /// Condition.
        cond: Expr,
        /// Body.
        body: Box<Stmt>,
    },
    /// `do body while (cond);`
    DoWhile {
        /// Body.
        body: Box<Stmt>,
        /// Condition.
        cond: Expr,
    },
    /// `for (init; cond; step) body`
    For {
        /// Initialization: a declaration or expression statement.
        init: Option<Box<Stmt>>,
        /// Condition, if any.
        cond: Option<Expr>,
        /// Step expression, if any.
        step: Option<Expr>,
        /// Body.
        body: Box<Stmt>,
    },
    /// `switch (cond) body`
    Switch {
        /// Controlling expression (promoted).
        cond: Expr,
        /// Body.
        body: Box<Stmt>,
    },
    /// `case lo:` or `case lo ... hi:`
    Case {
        /// Value (converted to the promoted type of the controlling expression by the CFA builder).
        lo: Expr,
        /// Upper end of a GNU case range.
        hi: Option<Expr>,
        /// The labelled statement.
        body: Box<Stmt>,
    },
    /// `default:`
    Default {
        /// The labelled statement.
        body: Box<Stmt>,
    },
    /// `name: body`
    Label {
        /// Label name.
        name: String,
        /// The labelled statement.
        body: Box<Stmt>,
    },
    /// `goto name;`
    Goto(String),
    /// `break;`
    Break,
    /// `continue;`
    Continue,
    /// `return;` or `return e;` (the value converted to the return type).
    Return(Option<Expr>),
    /// Inline assembly (no effect is modelled; it makes results unknown where it matters).
    Asm,
}

/// One entry of a local declaration.
#[derive(Clone, Debug)]
pub enum LocalEntry {
    /// A struct/union/enum definition or a `typedef`.
    Type,
    /// A variable.
    Var(LocalDecl),
}

/// One declarator of a local declaration.
#[derive(Clone, Debug)]
pub struct LocalDecl {
    /// The variable.
    pub var: VarId,
    /// Initializer.
    pub init: Option<Init>,
}

/// An initializer.
#[derive(Clone, Debug)]
pub enum Init {
    /// A single expression, converted to the object's type.
    Expr(Expr),
    /// A brace-enclosed list, flattened to scalar leaves; the rest of the object is zero.
    List(Vec<InitLeaf>),
}

/// One scalar (or string-initialized array) inside an initializer list.
#[derive(Clone, Debug)]
pub struct InitLeaf {
    /// Path from the object to the sub-object.
    pub path: Vec<InitStep>,
    /// The value, converted to the sub-object's type (a `Str` for a char array initialized by a string).
    pub value: Expr,
}

/// One step of an initializer path.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum InitStep {
    /// A struct or union member, by index in the record's field list.
    Field(usize),
    /// An array element.
    Index(u64),
}

/// A typed expression.
#[derive(Clone, Debug)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Its type after conversions.
    pub ty: TypeId,
    /// Its source span (for implicit conversions: the converted operand's).
    pub span: Span,
}

/// Unary operators.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum UnOp {
    /// `-e`
    Neg,
    /// `~e`
    BitNot,
    /// `!e` (result `int`)
    LogNot,
    /// `+e`
    Plus,
}

/// Binary operators.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BinOp {
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `+` (also pointer + integer)
    Add,
    /// `-` (also pointer - integer and pointer - pointer)
    Sub,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `<=`
    Le,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `&`
    BitAnd,
    /// `^`
    BitXor,
    /// `|`
    BitOr,
    /// `&&`
    LogAnd,
    /// `||`
    LogOr,
}

impl BinOp {
    /// The C spelling.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Lt => "<",
            BinOp::Gt => ">",
            BinOp::Le => "<=",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::BitAnd => "&",
            BinOp::BitXor => "^",
            BinOp::BitOr => "|",
            BinOp::LogAnd => "&&",
            BinOp::LogOr => "||",
        }
    }

    /// Whether the operator is a comparison (`<`, `==`, ...).
    pub fn is_relational(self) -> bool {
        matches!(self, BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne)
    }

    /// The comparison that holds exactly when this one does not.
    pub fn negated(self) -> Option<BinOp> {
        Some(match self {
            BinOp::Lt => BinOp::Ge,
            BinOp::Ge => BinOp::Lt,
            BinOp::Gt => BinOp::Le,
            BinOp::Le => BinOp::Gt,
            BinOp::Eq => BinOp::Ne,
            BinOp::Ne => BinOp::Eq,
            _ => return None,
        })
    }
}

/// Which conversion an implicit or explicit cast performs is derived from the two types; this only
/// records how the cast was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CastOrigin {
    /// Inserted by the C typing rules.
    Implicit,
    /// Written in the source; holds the type as CPAchecker prints it (`int`, `struct s *`, `size_t `).
    Explicit(Box<str>),
}

/// The value of a floating constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloatLit {
    /// The value as a `double` (what CPAchecker's edge texts print).
    pub value: f64,
    /// The exact encoding in the constant's own type (rounded once, from the text), for `float`
    /// and `double`; `None` for `long double` and `_Float128`.
    pub bits: Option<u128>,
}

/// Expression kinds.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// An integer constant of the expression's type (character constants included).
    IntConst(i128),
    /// A floating constant.
    FloatConst(FloatLit),
    /// A string literal (an lvalue of array type).
    Str(StrId),
    /// A variable (an lvalue).
    Var(VarId),
    /// A function designator.
    Func(FuncId),
    /// A unary arithmetic or logical operator.
    Unary(UnOp, Box<Expr>),
    /// A binary operator; arithmetic operands are already converted to the common type.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `lhs = rhs` with `rhs` converted to the type of `lhs`.
    Assign(Box<Expr>, Box<Expr>),
    /// `lhs op= rhs`, computed in type `.3` (operands converted there, the result back to `lhs`'s type).
    CompoundAssign(BinOp, Box<Expr>, Box<Expr>, TypeId),
    /// `++e`, `--e`, `e++`, `e--`.
    IncDec {
        /// Prefix form.
        pre: bool,
        /// Increment (else decrement).
        inc: bool,
        /// The lvalue.
        target: Box<Expr>,
    },
    /// `c ? a : b` with both branches converted to the result type.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `a, b`
    Comma(Box<Expr>, Box<Expr>),
    /// A call; the callee is a function designator or a pointer to function; arguments converted.
    Call(Box<Expr>, Vec<Expr>),
    /// `base.field` or `base->field` (`arrow`: base is a pointer); `field` indexes the record's fields.
    Member {
        /// Record lvalue, or pointer to record when `arrow`.
        base: Box<Expr>,
        /// Index into the record's fields.
        field: usize,
        /// Written with `->`.
        arrow: bool,
        /// The member is an anonymous struct/union reached implicitly (not printed).
        anonymous: bool,
    },
    /// `base[index]` with `base` a pointer (arrays decayed) and `index` an integer.
    Index(Box<Expr>, Box<Expr>),
    /// `*e`
    Deref(Box<Expr>),
    /// `&e`
    AddrOf(Box<Expr>),
    /// A conversion to the expression's type.
    Cast(Box<Expr>, CastOrigin),
    /// Array-to-pointer or function-to-pointer decay of an lvalue.
    Decay(Box<Expr>),
    /// `sizeof`/`_Alignof`/`offsetof`, folded to its value (of type `size_t`).
    SizeOf(u64),
    /// `sizeof e` folded to its value, with its operand `e` when that holds a `?:`, `&&`, `||` or
    /// comma and nothing with an effect: C does not evaluate it, but CPAchecker's AST converter hoists
    /// those into branches that set a `__CPAchecker_TMP_n`, so its CFA has the edges (glibc's
    /// `assert` is `(void) sizeof ((e) ? 1 : 0), ...`).
    SizeOfExpr(u64, Box<Expr>),
    /// A GNU statement expression `({ ...; e; })`: the block (a `StmtKind::Block`, its own scope).
    /// Its value is that of the last statement when that is an expression statement (of that type);
    /// otherwise the type is `void`.
    StmtExpr(Box<Stmt>),
    /// A construct vcov does not model (`va_arg`, compound literal, ...).
    Unsupported(String),
}

impl Expr {
    /// The expression with implicit conversions stripped.
    pub fn strip_implicit(&self) -> &Expr {
        let mut e = self;
        while let ExprKind::Cast(inner, CastOrigin::Implicit) = &e.kind {
            e = inner;
        }
        e
    }

    /// Whether the expression has an operand (`for_each_child` calls its function): a constant, a
    /// name, a folded `sizeof`, a statement expression or an unsupported construct has none.
    pub fn has_operands(&self) -> bool {
        let mut any = false;
        self.for_each_child(|_| any = true);
        any
    }

    /// Calls `f` on each operand of the expression, left to right (not into a statement
    /// expression's block, which is no expression).
    pub fn for_each_child<'e>(&'e self, mut f: impl FnMut(&'e Expr)) {
        match &self.kind {
            ExprKind::Unary(_, x)
            | ExprKind::Cast(x, _)
            | ExprKind::Deref(x)
            | ExprKind::AddrOf(x)
            | ExprKind::Decay(x)
            | ExprKind::Member { base: x, .. }
            | ExprKind::IncDec { target: x, .. } => f(x),
            ExprKind::Binary(_, a, b)
            | ExprKind::Index(a, b)
            | ExprKind::Assign(a, b)
            | ExprKind::Comma(a, b)
            | ExprKind::CompoundAssign(_, a, b, _) => {
                f(a);
                f(b);
            }
            ExprKind::Cond(c, a, b) => {
                f(c);
                f(a);
                f(b);
            }
            ExprKind::Call(callee, args) => {
                f(callee);
                args.iter().for_each(f);
            }
            ExprKind::IntConst(_)
            | ExprKind::FloatConst(_)
            | ExprKind::Str(_)
            | ExprKind::Var(_)
            | ExprKind::Func(_)
            | ExprKind::SizeOf(_)
            | ExprKind::SizeOfExpr(..)
            | ExprKind::StmtExpr(_)
            | ExprKind::Unsupported(_) => {}
        }
    }

    /// The value if the expression is an integer constant (possibly behind casts already folded).
    pub fn as_int_const(&self) -> Option<i128> {
        match &self.kind {
            ExprKind::IntConst(v) => Some(*v),
            _ => None,
        }
    }
}
