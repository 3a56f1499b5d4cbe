//! The types of declarations: declaration specifiers (keywords, typedef names, `typeof`, qualifiers
//! and layout attributes), struct, union and enum types with their tags, and declarators (pointers,
//! arrays, functions, `mode` attributes), each also rendered as CPAchecker prints it.

use lang_c::ast;
use lang_c::span::Node;

use super::{sp, Declared, Lowerer, Ordinary, Param, Res, Resolved, Specs, Tag};
use crate::base::Span;
use crate::cfront::consteval::eval_int;
use crate::cfront::ir::*;
use crate::cfront::types::*;

impl Lowerer<'_> {
    pub(super) fn specifiers(&mut self, specs: &[Node<ast::DeclarationSpecifier>]) -> Res<Specs> {
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
        let mut kw = Keywords::default();
        let mut other: Option<Resolved> = None;
        for ts in tspecs {
            match &ts.node {
                T::Void => kw.void = true,
                T::Char => kw.n_char += 1,
                T::Short => kw.n_short += 1,
                T::Int => kw.n_int += 1,
                T::Long => kw.n_long += 1,
                T::Float => kw.float = true,
                T::Double => kw.double = true,
                T::Signed => kw.signed = true,
                T::Unsigned => kw.unsigned = true,
                T::Bool => kw.bool_ = true,
                _ => other = Some(self.named_type_specifier(ts, attrs)?),
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
        let kind = self.keyword_type(&kw, &mut parts, span);
        Ok((self.types.intern(kind), None, parts.join(" ")))
    }

    /// The type a specifier other than a keyword of a basic type names: a struct, union or enum
    /// (`attrs` are the declaration's attributes), a typedef name, `typeof`, `_Atomic(…)` or a
    /// `_FloatN` type.
    fn named_type_specifier(
        &mut self,
        ts: &Node<ast::TypeSpecifier>,
        attrs: &[&Node<ast::Extension>],
    ) -> Res<Resolved> {
        use ast::TypeSpecifier as T;
        Ok(match &ts.node {
            T::Complex => return self.err(sp(&ts.span), "complex types are not supported"),
            T::Atomic(tn) => {
                let (ty, text) = self.type_name(tn)?;
                (ty, None, text)
            }
            T::Struct(st) => {
                // gcc applies attributes after the body to the record and ignores leading ones.
                let after = sp(&ts.span).hi;
                let trailing: Vec<_> = attrs.iter().copied().filter(|a| sp(&a.span).lo >= after).collect();
                let (packed, aligned) = self.layout_attributes(&trailing)?;
                let layout = RecordLayout { packed, pack: None, aligned };
                self.struct_type(st, layout)?
            }
            T::Enum(et) => self.enum_type(et)?,
            T::TypedefName(id) => match self.lookup(&id.node.name) {
                Some(Ordinary::Typedef(ty)) => (ty, None, format!("{} ", id.node.name)),
                _ => return self.err(sp(&id.span), format!("unknown type name '{}'", id.node.name)),
            },
            T::TypeOf(to) => {
                let ty = match &to.node {
                    ast::TypeOf::Expression(e) => self.expr(e)?.ty,
                    ast::TypeOf::Type(tn) => self.type_name(tn)?.0,
                };
                let text = self.text(sp(&ts.span)).to_string();
                (ty, None, text)
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
                (self.types.intern(TypeKind::Float(kind)), None, text)
            }
            T::Void
            | T::Char
            | T::Short
            | T::Int
            | T::Long
            | T::Float
            | T::Double
            | T::Signed
            | T::Unsigned
            | T::Bool => unreachable!("a keyword of a basic type"),
        })
    }

    /// The basic type the keywords `kw` name, its words appended to `parts` in CPAchecker's order;
    /// no keyword of a type (`const x;`) is `int`, with a warning at `span`.
    fn keyword_type(&mut self, kw: &Keywords, parts: &mut Vec<&str>, span: Span) -> TypeKind {
        if kw.unsigned {
            parts.push("unsigned");
        } else if kw.signed {
            parts.push("signed");
        }
        match kw.n_long {
            0 => {}
            1 => parts.push("long"),
            _ => parts.push("long long"),
        }
        if kw.n_short > 0 {
            parts.push("short");
        }
        if kw.void {
            parts.push("void");
            TypeKind::Void
        } else if kw.bool_ {
            parts.push("_Bool");
            TypeKind::Int(IntType::BOOL)
        } else if kw.float {
            parts.push("float");
            TypeKind::Float(FloatKind::Float)
        } else if kw.double {
            parts.push("double");
            TypeKind::Float(if kw.n_long > 0 { FloatKind::LongDouble } else { FloatKind::Double })
        } else if kw.n_char > 0 {
            parts.push("char");
            TypeKind::Int(IntType { rank: IntRank::Char, signed: !kw.unsigned })
        } else {
            if kw.n_int > 0 {
                parts.push("int");
            }
            if kw.n_int == 0 && kw.n_long == 0 && kw.n_short == 0 && !kw.signed && !kw.unsigned {
                self.warn(span, "type defaults to 'int'");
                parts.push("int");
            }
            let rank = match (kw.n_short, kw.n_long) {
                (s, _) if s > 0 => IntRank::Short,
                (_, 0) => IntRank::Int,
                (_, 1) => IntRank::Long,
                _ => IntRank::LongLong,
            };
            TypeKind::Int(IntType { rank, signed: !kw.unsigned })
        }
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
    pub(super) fn type_name(&mut self, tn: &Node<ast::TypeName>) -> Res<(TypeId, String)> {
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
    pub(super) fn declarator(&mut self, base: TypeId, d: &Node<ast::Declarator>) -> Res<Declared> {
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

/// The keywords of a basic type among a declaration's specifiers (`unsigned long long int`).
#[derive(Default)]
struct Keywords {
    n_long: u32,
    n_short: u32,
    n_char: u32,
    n_int: u32,
    signed: bool,
    unsigned: bool,
    bool_: bool,
    void: bool,
    float: bool,
    double: bool,
}
