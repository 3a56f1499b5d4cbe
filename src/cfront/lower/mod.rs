//! Lowering of `lang_c`'s AST to the typed IR: scopes, declarations, types and initializers.
//! Expressions are in `expr.rs`, statements in `stmt.rs`.

mod expr;
mod init;
mod stmt;

use rustc_hash::FxHashMap as HashMap;

use lang_c::ast;
use lang_c::span::Node;

use super::consteval::eval_int;
use super::ir::*;
use super::layout::LayoutHints;
use super::types::*;
use super::FrontError;
use crate::base::{Diagnostic, Severity, SourceFile, Span};

type Res<T> = Result<T, FrontError>;

/// Lowers a parsed translation unit.
pub(super) fn lower(
    file: SourceFile,
    dm: DataModel,
    unit: &ast::TranslationUnit,
    hints: LayoutHints,
) -> Result<(Program, Vec<Diagnostic>), FrontError> {
    let mut l = Lowerer::new(&file, dm);
    l.hints = hints;
    for (span, msg) in std::mem::take(&mut l.hints.warnings) {
        l.warn(span, msg);
    }
    for ext in &unit.0 {
        match &ext.node {
            ast::ExternalDeclaration::Declaration(d) => l.global_declaration(d)?,
            ast::ExternalDeclaration::FunctionDefinition(fd) => l.function_definition(fd)?,
            ast::ExternalDeclaration::StaticAssert(_) => {}
        }
    }
    let Lowerer { types, vars, funcs, strings, globals, late_globals, diags, .. } = l;
    let prog = Program { file, types, vars, funcs, strings, globals, late_globals };
    Ok((prog, diags))
}

/// What an ordinary identifier denotes.
#[derive(Clone, Copy, Debug)]
enum Ordinary {
    Var(VarId),
    Func(FuncId),
    EnumConst(i128),
    Typedef(TypeId),
}

#[derive(Clone, Copy, Debug)]
enum Tag {
    Record(RecordId),
    Enum(TypeId, u32),
}

#[derive(Default)]
struct Scope {
    ordinary: HashMap<String, Ordinary>,
    tags: HashMap<String, Tag>,
}

/// A parameter of a function declarator: name, adjusted type, span.
type Param = (Option<String>, TypeId, Span);

/// The tag a type specifier defines (`true`) or names (`false`), if any.
type TagInfo = Option<(Option<TagRef>, bool)>;

/// A resolved type specifier: the type, its tag, and CPAchecker's rendering of it.
type Resolved = (TypeId, TagInfo, String);

/// The resolved declaration specifiers of one declaration.
struct Specs {
    storage: Option<ast::StorageClassSpecifier>,
    ty: TypeId,
    /// The specifiers define a struct/union/enum (`Some((record, true))` for a struct or union,
    /// `None` record for an enum), or name a struct/union tag (`Some((record, false))`).
    tag: TagInfo,
    /// CPAchecker's rendering of the base type (`unsigned long`, `struct s `, `size_t `).
    text: String,
    /// Span of all specifiers together.
    span: Span,
}

impl Specs {
    /// The tag this declaration declares, as the `record` of a `GlobalDecl::Type`: a definition, or a
    /// forward declaration (`struct s;`, no declarators).
    fn declared_tag(&self, no_declarators: bool) -> Option<Option<(TagRef, bool)>> {
        match self.tag {
            Some((tag, true)) => Some(tag.map(|t| (t, true))),
            Some((tag, false)) if no_declarators => Some(tag.map(|t| (t, false))),
            _ => None,
        }
    }
}

/// The result of applying a declarator to a base type.
struct Declared {
    name: Option<(String, Span)>,
    ty: TypeId,
    /// The parameters of the function declarator attached to the name, if any.
    params: Option<Vec<Param>>,
    /// The abstract declarator rendered for casts (`*`, `**`), empty for none.
    pointer_text: String,
}

struct Lowerer<'a> {
    file: &'a SourceFile,
    types: Types,
    vars: Vec<Var>,
    funcs: Vec<Func>,
    func_by_name: HashMap<String, FuncId>,
    global_var_by_name: HashMap<String, VarId>,
    strings: Vec<Vec<u8>>,
    globals: Vec<GlobalDecl>,
    late_globals: Vec<GlobalDecl>,
    scopes: Vec<Scope>,
    diags: Vec<Diagnostic>,
    cur_func: Option<FuncId>,
    /// Per function: how often each local name was declared (CPAchecker renames re-declarations).
    local_names: HashMap<String, u32>,
    size_t: TypeId,
    ptrdiff_t: TypeId,
    /// Enum tags seen so far (their identities are `TagRef::Enum(0..n_enums)`).
    n_enums: u32,
    /// `#pragma pack` and the attributes after `struct`/`union` keywords, read before parsing.
    hints: LayoutHints,
    /// Per function: the constructs jump statements and labels refer to.
    jumps: Jumps,
    /// Expressions being lowered, one inside the other (`MAX_EXPR_NESTING` at most).
    expr_depth: u32,
    /// Statements being lowered, one inside the other (`MAX_STMT_NESTING` at most).
    stmt_depth: u32,
}

/// How deeply expressions may nest (an operand of an operand of ...): every stage after parsing
/// walks them recursively, on threads with stacks of a few MiB (2,000 levels fit in 4 MiB, half the
/// main thread's default). Deeper input is refused with an error at the expression that goes too
/// deep; C compilers nest brackets only 256 deep by default (clang's `-fbracket-depth`).
pub const MAX_EXPR_NESTING: u32 = 1000;
/// How deeply statements may nest (a statement in a block in a branch ..., an `else if` chain): the
/// CFA builder walks them recursively (a 5,000-long `else if` chain fits in 4 MiB).
pub const MAX_STMT_NESTING: u32 = 5000;

/// What the jump statements and labels of the function being lowered may refer to (C11 6.8.1,
/// 6.8.4.2, 6.8.6); checked here so that the CFA builder never meets a jump without a target.
#[derive(Default)]
struct Jumps {
    /// Loops enclosing the current statement.
    n_loops: u32,
    /// `switch` statements enclosing the current statement, innermost last.
    switches: Vec<SwitchLabels>,
    /// Labels defined so far, with their positions.
    labels: HashMap<String, Span>,
    /// Every `goto`, in source order: label name and the name's position.
    gotos: Vec<(String, Span)>,
}

/// The case labels of one `switch` seen so far.
struct SwitchLabels {
    /// The promoted type of the controlling expression (case values are converted to it).
    ty: IntType,
    /// Case values and ranges seen so far (inclusive bounds).
    cases: Vec<(i128, i128)>,
    /// Whether a `default:` was seen.
    has_default: bool,
}

impl<'a> Lowerer<'a> {
    fn new(file: &'a SourceFile, dm: DataModel) -> Self {
        let mut types = Types::new(dm);
        let (size_t, ptrdiff_t) = match dm {
            DataModel::Ilp32 => (types.int(IntType::UINT), types.int(IntType::INT)),
            DataModel::Lp64 => (types.int(IntType::ULONG), types.int(IntType::LONG)),
        };
        let mut scope = Scope::default();
        // gcc's built-in typedef; vcov does not model variadic arguments, so its shape does not matter.
        let char_ty = types.int(IntType::CHAR);
        let va_list = types.pointer(char_ty);
        scope.ordinary.insert("__builtin_va_list".into(), Ordinary::Typedef(va_list));
        Lowerer {
            file,
            types,
            vars: Vec::new(),
            funcs: Vec::new(),
            func_by_name: HashMap::default(),
            global_var_by_name: HashMap::default(),
            strings: Vec::new(),
            globals: Vec::new(),
            late_globals: Vec::new(),
            scopes: vec![scope],
            diags: Vec::new(),
            cur_func: None,
            local_names: HashMap::default(),
            size_t,
            ptrdiff_t,
            n_enums: 0,
            hints: LayoutHints::default(),
            jumps: Jumps::default(),
            expr_depth: 0,
            stmt_depth: 0,
        }
    }

    // ----- diagnostics -----

    /// Lowers expression `e` with `f` one level deeper, or refuses it at `MAX_EXPR_NESTING`.
    fn nested_expr<T>(&mut self, span: Span, f: impl FnOnce(&mut Self) -> Res<T>) -> Res<T> {
        if self.expr_depth >= MAX_EXPR_NESTING {
            return self.err(span, format!("expression nested more than {MAX_EXPR_NESTING} levels deep"));
        }
        self.expr_depth += 1;
        let res = f(self);
        self.expr_depth -= 1;
        res
    }

    /// Lowers a statement with `f` one level deeper, or refuses it at `MAX_STMT_NESTING`.
    fn nested_stmt<T>(&mut self, span: Span, f: impl FnOnce(&mut Self) -> Res<T>) -> Res<T> {
        if self.stmt_depth >= MAX_STMT_NESTING {
            return self.err(span, format!("statement nested more than {MAX_STMT_NESTING} levels deep"));
        }
        self.stmt_depth += 1;
        let res = f(self);
        self.stmt_depth -= 1;
        res
    }

    fn err<T>(&self, span: Span, message: impl Into<String>) -> Res<T> {
        let (path, lc) = self.file.position(span.lo);
        Err(FrontError { path: path.to_path_buf(), line: lc.line, col: lc.col, message: message.into() })
    }

    fn warn(&mut self, span: Span, message: impl Into<String>) {
        let (path, lc) = self.file.position(span.lo);
        self.diags.push(Diagnostic::new(Severity::Warning, path, lc.line, lc.col, message));
    }

    fn text(&self, span: Span) -> &'a str {
        self.file.slice(span)
    }

    // ----- scopes -----

    fn push_scope(&mut self) {
        self.scopes.push(Scope::default());
    }

    fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    fn lookup(&self, name: &str) -> Option<Ordinary> {
        self.scopes.iter().rev().find_map(|s| s.ordinary.get(name).copied())
    }

    fn lookup_tag(&self, name: &str) -> Option<Tag> {
        self.scopes.iter().rev().find_map(|s| s.tags.get(name).copied())
    }

    fn bind(&mut self, name: &str, what: Ordinary) {
        self.scopes.last_mut().expect("scope").ordinary.insert(name.to_string(), what);
    }

    // ----- declarations -----

    fn global_declaration(&mut self, d: &Node<ast::Declaration>) -> Res<()> {
        let span = sp(&d.span);
        let specs = self.specifiers(&d.node.specifiers)?;
        if let Some(record) = specs.declared_tag(d.node.declarators.is_empty()) {
            self.globals.push(GlobalDecl::Type { span, tag: record });
        }
        for id in &d.node.declarators {
            let decl = self.declarator(specs.ty, &id.node.declarator)?;
            let Some((name, name_span)) = decl.name.clone() else { continue };
            if specs.storage == Some(ast::StorageClassSpecifier::Typedef) {
                self.bind(&name, Ordinary::Typedef(decl.ty));
                self.globals.push(GlobalDecl::Type { span, tag: None });
                continue;
            }
            if matches!(self.types.kind(decl.ty), TypeKind::Func(_)) {
                let func = self.declare_func(&name, decl.ty, span);
                self.note_asm_label(func, &id.node.declarator);
                let params = decl.params.unwrap_or_default().into_iter().map(|p| p.0).collect();
                self.globals.push(GlobalDecl::FuncProto { func, span, params });
                continue;
            }
            let is_extern = specs.storage == Some(ast::StorageClassSpecifier::Extern) && id.node.initializer.is_none();
            let var = self.declare_global_var(&name, decl.ty, name_span, is_extern);
            let init = match &id.node.initializer {
                Some(init) => Some(self.initializer_for_var(var, init)?),
                None => None,
            };
            self.globals.push(GlobalDecl::Var { var, init, span });
        }
        Ok(())
    }

    fn declare_global_var(&mut self, name: &str, ty: TypeId, span: Span, is_extern: bool) -> VarId {
        if let Some(&v) = self.global_var_by_name.get(name) {
            let var = &mut self.vars[v.idx()];
            var.is_extern &= is_extern;
            // A later declaration may complete an array's size.
            if matches!(self.types.kind(var.ty), TypeKind::Array(_, None)) {
                var.ty = ty;
            }
            if !is_extern {
                var.span = span;
            }
            self.bind(name, Ordinary::Var(v));
            return v;
        }
        let v = self.new_var(Var {
            name: name.to_string(),
            cpa_name: name.to_string(),
            ty,
            kind: VarKind::Global,
            span,
            is_extern,
        });
        self.global_var_by_name.insert(name.to_string(), v);
        self.bind(name, Ordinary::Var(v));
        v
    }

    fn new_var(&mut self, var: Var) -> VarId {
        self.vars.push(var);
        VarId::from_idx(self.vars.len() - 1)
    }

    fn declare_func(&mut self, name: &str, ty: TypeId, span: Span) -> FuncId {
        let f = match self.func_by_name.get(name) {
            Some(&f) => {
                // A prototype after an unprototyped declaration refines the type.
                if let TypeKind::Func(ft) = self.types.kind(self.funcs[f.idx()].ty) {
                    if ft.unprototyped {
                        self.funcs[f.idx()].ty = ty;
                    }
                }
                f
            }
            None => {
                self.funcs.push(Func {
                    name: name.to_string(),
                    ty,
                    params: Vec::new(),
                    body: None,
                    span,
                    header_text: None,
                    address_taken: false,
                    asm_label: None,
                    implicit: false,
                });
                let f = FuncId::from_idx(self.funcs.len() - 1);
                self.func_by_name.insert(name.to_string(), f);
                f
            }
        };
        // A declaration written after an implicit one declares the function after all.
        self.funcs[f.idx()].implicit = false;
        // Functions always live at file scope, even when declared in a block.
        self.scopes[0].ordinary.insert(name.to_string(), Ordinary::Func(f));
        self.bind(name, Ordinary::Func(f));
        f
    }

    /// Records the assembler name (`__asm__ ("name")`) a declarator gives function `f`.
    fn note_asm_label(&mut self, f: FuncId, d: &Node<ast::Declarator>) {
        for ext in &d.node.extensions {
            if let ast::Extension::AsmLabel(s) = &ext.node {
                let bytes: Vec<u8> = s.node.iter().flat_map(|piece| expr::decode_string_piece(piece)).collect();
                self.funcs[f.idx()].asm_label = Some(String::from_utf8_lossy(&bytes).into_owned());
            }
        }
    }

    fn function_definition(&mut self, fd: &Node<ast::FunctionDefinition>) -> Res<()> {
        let specs = self.specifiers(&fd.node.specifiers)?;
        let decl = self.declarator(specs.ty, &fd.node.declarator)?;
        let Some((name, _)) = decl.name.clone() else {
            return self.err(sp(&fd.span), "function definition without a name");
        };
        if !fd.node.declarations.is_empty() {
            return self.err(sp(&fd.span), "K&R-style parameter declarations are not supported");
        }
        let f = self.declare_func(&name, decl.ty, sp(&fd.span));
        if self.funcs[f.idx()].body.is_some() {
            let at = decl.name.as_ref().map_or(sp(&fd.span), |n| n.1);
            return self.err(at, format!("redefinition of '{name}'"));
        }
        let header =
            format!("{} {}", self.text(specs.span).trim_end(), self.text(sp(&fd.node.declarator.span)).trim_start());
        {
            let func = &mut self.funcs[f.idx()];
            func.ty = decl.ty;
            func.span = sp(&fd.span);
            func.header_text = Some(header);
        }
        self.globals.push(GlobalDecl::FuncDef { func: f });

        self.cur_func = Some(f);
        self.local_names.clear();
        self.push_scope();
        let mut params = Vec::new();
        for (i, (pname, pty, pspan)) in decl.params.unwrap_or_default().into_iter().enumerate() {
            let name = pname.unwrap_or_else(|| format!("__param{i}"));
            let v = self.new_var(Var {
                name: name.clone(),
                cpa_name: name.clone(),
                ty: pty,
                kind: VarKind::Param(f, i),
                span: pspan,
                is_extern: false,
            });
            self.local_names.insert(name.clone(), 0);
            self.bind(&name, Ordinary::Var(v));
            params.push(v);
        }
        self.funcs[f.idx()].params = params;
        self.jumps = Jumps::default();
        let body = self.stmt(&fd.node.statement)?;
        let jumps = std::mem::take(&mut self.jumps);
        if let Some((label, at)) = jumps.gotos.iter().find(|(l, _)| !jumps.labels.contains_key(l)) {
            return self.err(*at, format!("use of undeclared label '{label}'"));
        }
        self.pop_scope();
        self.cur_func = None;
        self.funcs[f.idx()].body = Some(body);
        Ok(())
    }

    /// A block-scope declaration: local variables (with their CPAchecker names), types, statics.
    fn local_declaration(&mut self, d: &Node<ast::Declaration>) -> Res<Stmt> {
        let span = sp(&d.span);
        let func = self.cur_func.expect("local declaration outside a function");
        let specs = self.specifiers(&d.node.specifiers)?;
        let mut entries = Vec::new();
        if specs.declared_tag(d.node.declarators.is_empty()).is_some() {
            entries.push(LocalEntry::Type);
        }
        for id in &d.node.declarators {
            let decl = self.declarator(specs.ty, &id.node.declarator)?;
            let Some((name, name_span)) = decl.name.clone() else { continue };
            if specs.storage == Some(ast::StorageClassSpecifier::Typedef) {
                self.bind(&name, Ordinary::Typedef(decl.ty));
                entries.push(LocalEntry::Type);
                continue;
            }
            if matches!(self.types.kind(decl.ty), TypeKind::Func(_)) {
                let known = self.func_by_name.contains_key(&name);
                let f = self.declare_func(&name, decl.ty, span);
                self.note_asm_label(f, &id.node.declarator);
                if !known {
                    let params = decl.params.unwrap_or_default().into_iter().map(|p| p.0).collect();
                    self.late_globals.push(GlobalDecl::FuncProto { func: f, span, params });
                }
                continue;
            }
            match specs.storage {
                Some(ast::StorageClassSpecifier::Extern) => {
                    self.declare_global_var(&name, decl.ty, name_span, true);
                }
                Some(ast::StorageClassSpecifier::Static) => {
                    let fname = self.funcs[func.idx()].name.clone();
                    let cpa_name = format!("static__{fname}__{name}");
                    let kind = VarKind::StaticLocal(func);
                    let (var, init) =
                        self.block_var(&name, cpa_name, decl.ty, kind, name_span, &id.node.initializer)?;
                    self.late_globals.push(GlobalDecl::Var { var, init, span });
                }
                _ => {
                    let count = self.local_names.entry(name.clone()).and_modify(|c| *c += 1).or_insert(0);
                    let cpa_name = if *count == 0 { name.clone() } else { format!("{name}__{count}") };
                    let kind = VarKind::Local(func);
                    let (var, init) =
                        self.block_var(&name, cpa_name, decl.ty, kind, name_span, &id.node.initializer)?;
                    entries.push(LocalEntry::Var(LocalDecl { var, init }));
                }
            }
        }
        let kind = if entries.is_empty() { StmtKind::NoEdgeDecl } else { StmtKind::Decl(entries) };
        Ok(Stmt { kind, span })
    }

    /// A block-scope variable, bound in the current scope before its initializer is lowered (it is in
    /// scope in its own initializer).
    fn block_var(
        &mut self,
        name: &str,
        cpa_name: String,
        ty: TypeId,
        kind: VarKind,
        span: Span,
        init: &Option<Node<ast::Initializer>>,
    ) -> Res<(VarId, Option<Init>)> {
        let v = self.new_var(Var { name: name.to_string(), cpa_name, ty, kind, span, is_extern: false });
        self.bind(name, Ordinary::Var(v));
        let init = match init {
            Some(init) => Some(self.initializer_for_var(v, init)?),
            None => None,
        };
        Ok((v, init))
    }

    // ----- types -----

    fn specifiers(&mut self, specs: &[Node<ast::DeclarationSpecifier>]) -> Res<Specs> {
        let mut storage = None;
        let mut tspecs = Vec::new();
        let mut quals = Vec::new();
        let mut attrs: Vec<&Node<ast::Extension>> = Vec::new();
        for s in specs {
            match &s.node {
                ast::DeclarationSpecifier::StorageClass(sc) => storage = Some(sc.node.clone()),
                ast::DeclarationSpecifier::TypeSpecifier(ts) => tspecs.push(ts),
                ast::DeclarationSpecifier::TypeQualifier(q) => quals.push(q.node.clone()),
                ast::DeclarationSpecifier::Extension(ext) => attrs.extend(ext.iter()),
                ast::DeclarationSpecifier::Function(_) | ast::DeclarationSpecifier::Alignment(_) => {}
            }
        }
        // CDT's declaration-specifier text leaves out GNU attributes before and after the keywords.
        let span = specs
            .iter()
            .filter(|s| !matches!(s.node, ast::DeclarationSpecifier::Extension(_)))
            .map(|s| sp(&s.span))
            .reduce(Span::join)
            .unwrap_or_default();
        let (ty, tag, text) = self.type_specifiers(&tspecs, &quals, &attrs, span)?;
        Ok(Specs { storage, ty, tag, text, span })
    }

    fn specifier_qualifiers(&mut self, specs: &[Node<ast::SpecifierQualifier>]) -> Res<Specs> {
        let mut tspecs = Vec::new();
        let mut quals = Vec::new();
        let mut attrs = Vec::new();
        for s in specs {
            match &s.node {
                ast::SpecifierQualifier::TypeSpecifier(ts) => tspecs.push(ts),
                ast::SpecifierQualifier::TypeQualifier(q) => quals.push(q.node.clone()),
                ast::SpecifierQualifier::Extension(ext) => attrs.extend(ext.iter()),
            }
        }
        let span = specs.iter().map(|s| sp(&s.span)).reduce(Span::join).unwrap_or_default();
        let (ty, tag, text) = self.type_specifiers(&tspecs, &quals, &attrs, span)?;
        Ok(Specs { storage: None, ty, tag, text, span })
    }

    /// Resolves a list of type specifiers to a type; also says whether a tag was declared and renders
    /// the type the way CPAchecker prints it in casts.
    fn type_specifiers(
        &mut self,
        tspecs: &[&Node<ast::TypeSpecifier>],
        quals: &[ast::TypeQualifier],
        attrs: &[&Node<ast::Extension>],
        span: Span,
    ) -> Res<Resolved> {
        use ast::TypeSpecifier as T;
        let (mut n_long, mut n_short, mut n_char, mut n_int) = (0, 0, 0, 0);
        let (mut signed, mut unsigned, mut bool_, mut void, mut float, mut double) =
            (false, false, false, false, false, false);
        let mut other: Option<Resolved> = None;
        for ts in tspecs {
            match &ts.node {
                T::Void => void = true,
                T::Char => n_char += 1,
                T::Short => n_short += 1,
                T::Int => n_int += 1,
                T::Long => n_long += 1,
                T::Float => float = true,
                T::Double => double = true,
                T::Signed => signed = true,
                T::Unsigned => unsigned = true,
                T::Bool => bool_ = true,
                T::Complex => return self.err(sp(&ts.span), "complex types are not supported"),
                T::Atomic(tn) => {
                    let (ty, text) = self.type_name(tn)?;
                    other = Some((ty, None, text));
                }
                T::Struct(st) => {
                    // gcc applies attributes after the body to the record and ignores leading ones.
                    let after = sp(&ts.span).hi;
                    let trailing: Vec<_> = attrs.iter().copied().filter(|a| sp(&a.span).lo >= after).collect();
                    let (packed, aligned) = self.layout_attributes(&trailing)?;
                    let layout = RecordLayout { packed, pack: None, aligned };
                    other = Some(self.struct_type(st, layout)?);
                }
                T::Enum(et) => other = Some(self.enum_type(et)?),
                T::TypedefName(id) => match self.lookup(&id.node.name) {
                    Some(Ordinary::Typedef(ty)) => other = Some((ty, None, format!("{} ", id.node.name))),
                    _ => return self.err(sp(&id.span), format!("unknown type name '{}'", id.node.name)),
                },
                T::TypeOf(to) => {
                    let ty = match &to.node {
                        ast::TypeOf::Expression(e) => self.expr(e)?.ty,
                        ast::TypeOf::Type(tn) => self.type_name(tn)?.0,
                    };
                    let text = self.text(sp(&ts.span)).to_string();
                    other = Some((ty, None, text));
                }
                T::TS18661Float(ft) => {
                    // `_Float32`, `_Float64`, `_Float128` (glibc's <math.h> declares functions of
                    // them): floating point is not modelled, so only the size matters; a type whose
                    // size vcov does not know takes long double's, with a warning. gcc's
                    // `_Float32x` is double and `_Float64x` long double on x86.
                    let text = self.text(sp(&ts.span)).to_string();
                    let kind = match (&ft.format, ft.width) {
                        (ast::TS18661FloatFormat::BinaryInterchange, 32) => FloatKind::Float,
                        (ast::TS18661FloatFormat::BinaryInterchange, 64) => FloatKind::Double,
                        (ast::TS18661FloatFormat::BinaryInterchange, 128) => FloatKind::Float128,
                        (ast::TS18661FloatFormat::BinaryExtended, 32) => FloatKind::Double,
                        (ast::TS18661FloatFormat::BinaryExtended, 64) => FloatKind::LongDouble,
                        _ => {
                            self.warn(sp(&ts.span), format!("{text} is treated as long double"));
                            FloatKind::LongDouble
                        }
                    };
                    other = Some((self.types.intern(TypeKind::Float(kind)), None, text));
                }
            }
        }
        let mut parts: Vec<&str> = Vec::new();
        if quals.contains(&ast::TypeQualifier::Const) {
            parts.push("const");
        }
        if quals.contains(&ast::TypeQualifier::Volatile) {
            parts.push("volatile");
        }
        if let Some((ty, tag, text)) = other {
            let text = if parts.is_empty() { text } else { format!("{} {text}", parts.join(" ")) };
            return Ok((ty, tag, text));
        }
        if unsigned {
            parts.push("unsigned");
        } else if signed {
            parts.push("signed");
        }
        match n_long {
            0 => {}
            1 => parts.push("long"),
            _ => parts.push("long long"),
        }
        if n_short > 0 {
            parts.push("short");
        }
        let kind = if void {
            parts.push("void");
            TypeKind::Void
        } else if bool_ {
            parts.push("_Bool");
            TypeKind::Int(IntType::BOOL)
        } else if float {
            parts.push("float");
            TypeKind::Float(FloatKind::Float)
        } else if double {
            parts.push("double");
            TypeKind::Float(if n_long > 0 { FloatKind::LongDouble } else { FloatKind::Double })
        } else if n_char > 0 {
            parts.push("char");
            TypeKind::Int(IntType { rank: IntRank::Char, signed: !unsigned })
        } else {
            if n_int > 0 {
                parts.push("int");
            }
            if n_int == 0 && n_long == 0 && n_short == 0 && !signed && !unsigned {
                self.warn(span, "type defaults to 'int'");
                parts.push("int");
            }
            let rank = match (n_short, n_long) {
                (s, _) if s > 0 => IntRank::Short,
                (_, 0) => IntRank::Int,
                (_, 1) => IntRank::Long,
                _ => IntRank::LongLong,
            };
            TypeKind::Int(IntType { rank, signed: !unsigned })
        };
        Ok((self.types.intern(kind), None, parts.join(" ")))
    }

    /// `packed` and the largest `aligned(n)` among `attrs` (a bare `aligned` is 16, gcc's largest
    /// alignment on x86).
    fn layout_attributes(&mut self, attrs: &[&Node<ast::Extension>]) -> Res<(bool, Option<u64>)> {
        let (mut packed, mut aligned) = (false, None);
        for a in attrs {
            let ast::Extension::Attribute(attr) = &a.node else { continue };
            match attr.name.node.trim_matches('_') {
                "packed" => packed = true,
                "aligned" => {
                    let n = match attr.arguments.first() {
                        None => Some(16),
                        Some(e) => {
                            let v = self.expr(e)?;
                            eval_int(&self.types, &v)
                                .filter(|&n| n > 0 && (n as u64).is_power_of_two())
                                .map(|n| n as u64)
                        }
                    };
                    match n {
                        Some(n) => aligned = aligned.max(Some(n)),
                        None => self.warn(
                            sp(&a.span),
                            "attribute aligned with an argument that is not a power of two; ignored",
                        ),
                    }
                }
                _ => {}
            }
        }
        Ok((packed, aligned))
    }

    fn struct_type(&mut self, st: &Node<ast::StructType>, mut layout: RecordLayout) -> Res<Resolved> {
        let kind = match st.node.kind.node {
            ast::StructKind::Struct => RecordKind::Struct,
            ast::StructKind::Union => RecordKind::Union,
        };
        let kw = if kind == RecordKind::Struct { "struct" } else { "union" };
        let tag = st.node.identifier.as_ref().map(|i| i.node.name.clone());
        let text = match &tag {
            Some(t) => format!("{kw} {t} "),
            None => format!("{kw} "),
        };
        let Some(decls) = &st.node.declarations else {
            // A reference to a tag (or a forward declaration, which the caller recognises).
            let Some(tag) = tag else {
                return self.err(
                    sp(&st.span),
                    "struct or union without a tag or members (an attribute between `struct` and the tag is not \
                     supported; write it after the closing brace)",
                );
            };
            let rid = match self.lookup_tag(&tag) {
                Some(Tag::Record(r)) => r,
                _ => {
                    let r = self.types.new_record(kind, Some(tag.clone()));
                    self.scopes.last_mut().expect("scope").tags.insert(tag, Tag::Record(r));
                    r
                }
            };
            return Ok((self.types.intern(TypeKind::Record(rid)), Some((Some(TagRef::Record(rid)), false)), text));
        };
        let rid = match tag.as_ref().and_then(|t| self.scopes.last().expect("scope").tags.get(t).copied()) {
            Some(Tag::Record(r)) if self.types.record(r).fields.is_none() => r,
            _ => {
                let r = self.types.new_record(kind, tag.clone());
                if let Some(t) = &tag {
                    self.scopes.last_mut().expect("scope").tags.insert(t.clone(), Tag::Record(r));
                }
                r
            }
        };
        let mut members = Vec::new();
        for d in decls {
            let ast::StructDeclaration::Field(f) = &d.node else { continue };
            let specs = self.specifier_qualifiers(&f.node.specifiers)?;
            if f.node.declarators.is_empty() {
                // An anonymous struct or union member.
                members.push(Member::new(None, specs.ty, None));
                continue;
            }
            for sd in &f.node.declarators {
                let (name, ty, (packed, aligned)) = match &sd.node.declarator {
                    Some(decl) => {
                        let d = self.declarator(specs.ty, decl)?;
                        let attrs: Vec<_> = decl.node.extensions.iter().collect();
                        (d.name.map(|n| n.0), d.ty, self.layout_attributes(&attrs)?)
                    }
                    None => (None, specs.ty, (false, None)),
                };
                let at = sd.node.declarator.as_ref().map_or(sp(&sd.span), |d| sp(&d.span));
                self.check_field_type(name.as_deref(), ty, at)?;
                let width = match &sd.node.bit_width {
                    Some(w) => Some(self.bit_width(name.as_deref(), ty, w)?),
                    None => None,
                };
                members.push(Member { name, ty, width, packed, aligned });
            }
        }
        // The keyword's own attributes, and the `#pragma pack` in effect at the closing brace.
        let span = sp(&st.span);
        let keyword = self.hints.after_keyword(span.lo);
        layout.packed |= keyword.packed;
        layout.aligned = layout.aligned.max(keyword.aligned);
        layout.pack = self.hints.pack_at(span.hi);
        self.types.complete_record(rid, members, layout);
        Ok((self.types.intern(TypeKind::Record(rid)), Some((Some(TagRef::Record(rid)), true)), text))
    }

    /// A member must have a complete object type; a record is incomplete inside its own definition.
    fn check_field_type(&self, name: Option<&str>, ty: TypeId, at: Span) -> Res<()> {
        let shown = name.map_or_else(|| "anonymous field".to_string(), |n| format!("field '{n}'"));
        match self.types.kind(ty) {
            TypeKind::Func(_) => self.err(at, format!("{shown} declared as a function")),
            TypeKind::Void => self.err(at, format!("{shown} has incomplete type 'void'")),
            TypeKind::Record(r) if self.types.record(*r).fields.is_none() => {
                self.err(at, format!("{shown} has incomplete type '{}'", self.types.display(ty)))
            }
            _ => Ok(()),
        }
    }

    /// The width of a bit-field: a constant between 0 (unnamed only) and the width of its integer type
    /// (a wider one is cut to that width, with a warning).
    fn bit_width(&mut self, name: Option<&str>, ty: TypeId, w: &Node<ast::Expression>) -> Res<u32> {
        let at = sp(&w.span);
        let shown = name.map_or_else(|| "anonymous bit-field".to_string(), |n| format!("bit-field '{n}'"));
        let e = self.expr(w)?;
        let Some(v) = eval_int(&self.types, &e) else {
            return self.err(at, "bit-field width is not a constant");
        };
        let Some(it) = self.types.as_int(ty) else {
            return self.err(at, format!("{shown} has non-integer type '{}'", self.types.display(ty)));
        };
        let bits = it.bits(self.types.data_model());
        if v < 0 {
            self.err(at, format!("{shown} has negative width ({v})"))
        } else if v == 0 && name.is_some() {
            self.err(at, format!("{shown} has zero width"))
        } else if v > bits as i128 {
            // gcc rejects this, but CPAchecker accepts it (LP64 headers such as `unsigned long x : 45`
            // lowered for ILP32 in the corpus); the layout and the executor need a width that fits.
            self.warn(at, format!("width of {shown} ({v} bits) exceeds the width of its type; vcov uses {bits} bits"));
            Ok(bits)
        } else {
            Ok(v as u32)
        }
    }

    fn enum_type(&mut self, et: &Node<ast::EnumType>) -> Res<Resolved> {
        let tag = et.node.identifier.as_ref().map(|i| i.node.name.clone());
        let text = match &tag {
            Some(t) => format!("enum {t} "),
            None => "enum ".to_string(),
        };
        if et.node.enumerators.is_empty() {
            let (ty, id) = match tag.as_ref().and_then(|t| self.lookup_tag(t)) {
                Some(Tag::Enum(ty, id)) => (ty, id),
                _ => {
                    let ty = self.types.int(IntType::UINT);
                    let id = self.n_enums;
                    self.n_enums += 1;
                    if let Some(t) = &tag {
                        self.scopes.last_mut().expect("scope").tags.insert(t.clone(), Tag::Enum(ty, id));
                    }
                    (ty, id)
                }
            };
            return Ok((ty, Some((Some(TagRef::Enum(id)), false)), text));
        }
        let int = self.types.int(IntType::INT);
        let mut next: i128 = 0;
        let mut any_negative = false;
        for en in &et.node.enumerators {
            let value = match &en.node.expression {
                Some(e) => {
                    let le = self.expr(e)?;
                    match eval_int(&self.types, &le) {
                        Some(v) => v,
                        None => return self.err(sp(&e.span), "enumerator value is not a constant"),
                    }
                }
                None => next,
            };
            any_negative |= value < 0;
            next = value + 1;
            self.bind(&en.node.identifier.node.name, Ordinary::EnumConst(value));
        }
        // gcc gives an enum `unsigned int` as its type when no enumerator is negative.
        let ty = if any_negative { int } else { self.types.int(IntType::UINT) };
        // A definition completes an earlier forward declaration of the same tag in this scope.
        let id = match tag.as_ref().and_then(|t| self.scopes.last().expect("scope").tags.get(t).copied()) {
            Some(Tag::Enum(_, id)) => id,
            _ => {
                self.n_enums += 1;
                self.n_enums - 1
            }
        };
        if let Some(t) = tag {
            self.scopes.last_mut().expect("scope").tags.insert(t, Tag::Enum(ty, id));
        }
        Ok((ty, Some((Some(TagRef::Enum(id)), true)), text))
    }

    /// The type of a type name (casts, `sizeof`) and its CPAchecker rendering.
    fn type_name(&mut self, tn: &Node<ast::TypeName>) -> Res<(TypeId, String)> {
        let specs = self.specifier_qualifiers(&tn.node.specifiers)?;
        match &tn.node.declarator {
            Some(d) => {
                let decl = self.declarator(specs.ty, d)?;
                let text = if decl.pointer_text.is_empty() {
                    specs.text
                } else {
                    format!("{} {}", specs.text.trim_end(), decl.pointer_text)
                };
                Ok((decl.ty, text))
            }
            None => Ok((specs.ty, specs.text)),
        }
    }

    /// Applies a declarator to a base type: pointers in order, then array and function parts from
    /// the right, then the nested declarator.
    fn declarator(&mut self, base: TypeId, d: &Node<ast::Declarator>) -> Res<Declared> {
        let mut ty = base;
        let mut params = None;
        let mut pointer_text = String::new();
        let derived = &d.node.derived;
        for dd in derived.iter().filter(|x| matches!(x.node, ast::DerivedDeclarator::Pointer(_))) {
            ty = self.types.pointer(ty);
            pointer_text.push('*');
            let _ = dd;
        }
        for dd in derived.iter().rev() {
            match &dd.node {
                ast::DerivedDeclarator::Pointer(_) => {}
                ast::DerivedDeclarator::Array(ad) => {
                    let len = match &ad.node.size {
                        ast::ArraySize::Unknown => None,
                        ast::ArraySize::VariableUnknown => {
                            return self.err(sp(&dd.span), "variable-length arrays are not supported")
                        }
                        ast::ArraySize::VariableExpression(e) | ast::ArraySize::StaticExpression(e) => {
                            let le = self.expr(e)?;
                            match eval_int(&self.types, &le) {
                                Some(n) if n >= 0 => Some(n as u64),
                                _ => return self.err(sp(&e.span), "variable-length arrays are not supported"),
                            }
                        }
                    };
                    ty = self.types.intern(TypeKind::Array(ty, len));
                    pointer_text = format!("{pointer_text}[]");
                }
                ast::DerivedDeclarator::Function(fd) => {
                    let (ft, ps) = self.function_declarator(ty, fd)?;
                    ty = ft;
                    params = Some(ps);
                }
                ast::DerivedDeclarator::KRFunction(ids) => {
                    if !ids.is_empty() {
                        return self.err(sp(&dd.span), "K&R-style parameter lists are not supported");
                    }
                    ty = self.types.intern(TypeKind::Func(FuncType {
                        ret: ty,
                        params: Vec::new(),
                        variadic: false,
                        unprototyped: true,
                    }));
                    params = Some(Vec::new());
                }
                ast::DerivedDeclarator::Block(_) => return self.err(sp(&dd.span), "blocks are not supported"),
            }
        }
        match &d.node.kind.node {
            ast::DeclaratorKind::Abstract => Ok(Declared { name: None, ty, params, pointer_text }),
            ast::DeclaratorKind::Identifier(id) => {
                let ty = self.with_mode(ty, d)?;
                Ok(Declared { name: Some((id.node.name.clone(), sp(&id.span))), ty, params, pointer_text })
            }
            ast::DeclaratorKind::Declarator(inner) => {
                let mut res = self.declarator(ty, inner)?;
                if res.params.is_none() {
                    res.params = params;
                }
                res.pointer_text = format!("({}){pointer_text}", res.pointer_text);
                Ok(res)
            }
        }
    }

    /// The integer type `ty` resized by a `mode` attribute of the declarator (glibc's
    /// `typedef int register_t __attribute__ ((__mode__ (__word__)));`): `QI`, `HI`, `SI`, `DI`
    /// are 1, 2, 4 and 8 bytes, `word` and `pointer` the pointer's size, `byte` one byte.
    fn with_mode(&mut self, ty: TypeId, d: &Node<ast::Declarator>) -> Res<TypeId> {
        let Some(it) = self.types.as_int(ty) else { return Ok(ty) };
        for ext in &d.node.extensions {
            let ast::Extension::Attribute(attr) = &ext.node else { continue };
            if attr.name.node.trim_matches('_') != "mode" {
                continue;
            }
            let Some(ast::Expression::Identifier(m)) = attr.arguments.first().map(|a| &a.node) else { continue };
            let ptr = self.types.data_model().pointer_size();
            let bytes = match m.node.name.trim_matches('_') {
                "QI" | "byte" => 1,
                "HI" => 2,
                "SI" => 4,
                "DI" => 8,
                "word" | "pointer" => ptr,
                other => return self.err(sp(&m.span), format!("mode '{other}' is not supported")),
            };
            let dm = self.types.data_model();
            let rank = [IntRank::Char, IntRank::Short, IntRank::Int, IntRank::Long, IntRank::LongLong]
                .into_iter()
                .find(|&rank| IntType { rank, signed: it.signed }.bits(dm) == 8 * bytes as u32)
                .expect("every size up to 8 bytes has an integer type");
            return Ok(self.types.int(IntType { rank, signed: it.signed }));
        }
        Ok(ty)
    }

    fn function_declarator(&mut self, ret: TypeId, fd: &Node<ast::FunctionDeclarator>) -> Res<(TypeId, Vec<Param>)> {
        let mut params = Vec::new();
        let mut tys = Vec::new();
        self.push_scope();
        for p in &fd.node.parameters {
            let specs = self.specifiers(&p.node.specifiers)?;
            let (name, ty, span) = match &p.node.declarator {
                Some(d) => {
                    let decl = self.declarator(specs.ty, d)?;
                    let span = decl.name.as_ref().map(|n| n.1).unwrap_or(sp(&p.span));
                    (decl.name.map(|n| n.0), decl.ty, span)
                }
                None => (None, specs.ty, sp(&p.span)),
            };
            if matches!(self.types.kind(ty), TypeKind::Void) && fd.node.parameters.len() == 1 && name.is_none() {
                break; // `(void)`
            }
            // Parameters of array or function type are adjusted to pointers.
            let ty = match self.types.kind(ty).clone() {
                TypeKind::Array(elem, _) => self.types.pointer(elem),
                TypeKind::Func(_) => self.types.pointer(ty),
                _ => ty,
            };
            tys.push(ty);
            params.push((name, ty, span));
        }
        self.pop_scope();
        let variadic = matches!(fd.node.ellipsis, ast::Ellipsis::Some);
        let ft = self.types.intern(TypeKind::Func(FuncType { ret, params: tys, variadic, unprototyped: false }));
        Ok((ft, params))
    }
}

/// Converts a `lang_c` span.
fn sp(s: &lang_c::span::Span) -> Span {
    if s.is_none() {
        Span::default()
    } else {
        Span::new(s.start, s.end)
    }
}
