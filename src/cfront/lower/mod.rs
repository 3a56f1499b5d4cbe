//! Lowering of `lang_c`'s AST to the typed IR: the lowerer's state, scopes, and declarations of
//! variables, functions and typedefs.
//! The types declarations name are in `specifiers.rs`, initializers in `init.rs`, expressions in
//! `expr.rs`, statements in `stmt.rs`.

mod expr;
mod init;
mod promote;
mod specifiers;
mod stmt;

use rustc_hash::FxHashMap as HashMap;

use lang_c::ast;
use lang_c::span::Node;

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
    let prog =
        Program { file, types, vars, funcs, strings, globals, late_globals, library: None, library_vars: Vec::new() };
    Ok((prog, diags))
}

/// Lowers the library's translation unit `unit` (text `file`, whose spans lie past the program's)
/// into `prog`, in a file scope of its own: its functions are appended to `prog.funcs` marked
/// `library`, its types interned in `prog`'s table; its file-scope declarations are not the
/// program's, so they join no list of globals, and its variables are `prog.library_vars`. A library
/// the front end warns about is a fault of vcov's.
pub(super) fn lower_library(
    prog: &mut Program,
    file: &SourceFile,
    unit: &ast::TranslationUnit,
) -> Result<(), FrontError> {
    let dm = prog.types.data_model();
    let types = std::mem::replace(&mut prog.types, Types::new(dm));
    let mut l = Lowerer::with_types(file, types);
    l.library = true;
    l.vars = std::mem::take(&mut prog.vars);
    l.funcs = std::mem::take(&mut prog.funcs);
    l.strings = std::mem::take(&mut prog.strings);
    let res = unit.0.iter().try_for_each(|ext| match &ext.node {
        ast::ExternalDeclaration::Declaration(d) => l.global_declaration(d),
        ast::ExternalDeclaration::FunctionDefinition(fd) => l.function_definition(fd),
        ast::ExternalDeclaration::StaticAssert(_) => Ok(()),
    });
    let Lowerer { types, vars, funcs, strings, globals, late_globals, diags, .. } = l;
    (prog.types, prog.vars, prog.funcs, prog.strings) = (types, vars, funcs, strings);
    res?;
    debug_assert!(diags.is_empty(), "the library's models: {diags:?}");
    for d in globals.into_iter().chain(late_globals) {
        if let GlobalDecl::Var { var, init, .. } = d {
            prog.library_vars.push((var, init));
        }
    }
    Ok(())
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
    /// Whether this is the C library's text (`lower_library`).
    library: bool,
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
        Lowerer::with_types(file, Types::new(dm))
    }

    /// A lowerer that interns its types in `types`.
    fn with_types(file: &'a SourceFile, mut types: Types) -> Self {
        let dm = types.data_model();
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
            library: false,
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
                    library: self.library,
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
}

/// Converts a `lang_c` span.
fn sp(s: &lang_c::span::Span) -> Span {
    if s.is_none() {
        Span::default()
    } else {
        Span::new(s.start, s.end)
    }
}
