import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap, type Completion, type CompletionContext } from '@codemirror/autocomplete'
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands'
import { keywordCompletionSource, sql } from '@codemirror/lang-sql'
import { bracketMatching, HighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language'
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search'
import { Compartment, EditorState, Prec } from '@codemirror/state'
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers, placeholder } from '@codemirror/view'
import { tags } from '@lezer/highlight'
import { useEffect, useRef, useState, type JSX } from 'react'
import type { CompletionItem } from './completion.ts'
import { editorDialect } from './dialect.ts'

/** spec 2 §9: the editor reports text changes after 100 ms of quiet. */
const CHANGE_DEBOUNCE_MS = 100

/** What the page can do to the editor. */
export interface SqlEditorHandle {
  /** Replace the selection (or insert at the cursor) and focus the editor. */
  insert(text: string): void
  selectedText(): string
  text(): string
  setText(text: string): void
  focus(): void
}

export interface SqlEditorCommands {
  execute(selected: string | null): void
  save(): void
  format(): void
  addParameter(): void
}

export interface SqlEditorProps {
  initialText: string
  sourceType: string
  completions: CompletionItem[]
  liveAutocomplete: boolean
  readOnly: boolean
  label: string
  onChange(text: string): void
  commands: SqlEditorCommands
  onReady(handle: SqlEditorHandle): void
}

// colours come from CSS variables set on the wrapper, so the light and dark themes follow Tailwind's dark variant
const highlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.operatorKeyword], color: 'var(--cm-keyword)', fontWeight: '600' },
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--cm-string)' },
  { tag: [tags.number, tags.bool, tags.null], color: 'var(--cm-number)' },
  { tag: [tags.lineComment, tags.blockComment, tags.comment], color: 'var(--cm-comment)', fontStyle: 'italic' },
  { tag: [tags.typeName, tags.standard(tags.name)], color: 'var(--cm-type)' },
  { tag: [tags.special(tags.name), tags.quote], color: 'var(--cm-ident)' },
  { tag: [tags.punctuation, tags.operator, tags.bracket], color: 'var(--cm-punct)' },
])

const theme = EditorView.theme({
  '&': { height: '100%', fontSize: '13px', backgroundColor: 'transparent', color: 'var(--cm-text)' },
  '&.cm-focused': { outline: 'none' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', lineHeight: '1.6' },
  '.cm-content': { caretColor: 'var(--cm-caret)', padding: '8px 0' },
  '.cm-cursor': { borderLeftColor: 'var(--cm-caret)' },
  '.cm-gutters': { backgroundColor: 'transparent', color: 'var(--cm-gutter)', border: 'none', paddingLeft: '4px' },
  '.cm-activeLine': { backgroundColor: 'var(--cm-active-line)' },
  '.cm-activeLineGutter': { backgroundColor: 'transparent', color: 'var(--cm-text)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': { backgroundColor: 'var(--cm-selection) !important' },
  '.cm-placeholder': { color: 'var(--cm-punct)' }, // lighter greys fall below 4.5:1 on the active line
  '.cm-tooltip': { border: '1px solid var(--cm-border)', backgroundColor: 'var(--cm-tooltip)', borderRadius: '6px', overflow: 'hidden' },
  '.cm-tooltip-autocomplete > ul > li[aria-selected]': { backgroundColor: 'var(--cm-accent)', color: 'white' },
  '.cm-completionDetail': { opacity: '0.7', marginLeft: '1em', fontStyle: 'normal' },
  // find and replace, drawn like the page's own controls; kept in the editor's layer, under menus and dialogs
  '&.cm-editor .cm-panels': { backgroundColor: 'var(--cm-tooltip) !important', color: 'var(--cm-text) !important', zIndex: '1' },
  '&.cm-editor .cm-panels-top': { borderBottom: '1px solid var(--cm-border) !important' },
  '&.cm-editor .cm-panels-bottom': { borderTop: '1px solid var(--cm-border) !important' },
  '.cm-search': { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '6px', padding: '6px 32px 6px 8px', fontSize: '12px' },
  '.cm-search br': { display: 'none' },
  '.cm-textfield': {
    border: '1px solid var(--cm-border)', borderRadius: '6px', padding: '3px 8px', margin: '0', fontSize: '12px',
    backgroundColor: 'transparent', color: 'var(--cm-text)', outlineColor: 'var(--cm-accent)',
  },
  '.cm-button': {
    backgroundImage: 'none', backgroundColor: 'var(--cm-tooltip)', border: '1px solid var(--cm-border)', borderRadius: '6px',
    padding: '3px 8px', margin: '0', fontSize: '12px', color: 'var(--cm-text)', textTransform: 'none',
  },
  '.cm-button:active': { backgroundImage: 'none', backgroundColor: 'var(--cm-active-line)' },
  '.cm-search label': { display: 'inline-flex', alignItems: 'center', gap: '4px', fontSize: '12px' },
  '.cm-search [name=close]': { top: '6px', right: '8px', fontSize: '16px', color: 'var(--cm-gutter)' },
})

const CSS_VARIABLES = '[--cm-text:#0f172a] [--cm-caret:#4f46e5] [--cm-gutter:#94a3b8] [--cm-active-line:#f1f5f9] [--cm-selection:#c7d2fe] ' +
  '[--cm-keyword:#7c3aed] [--cm-string:#047857] [--cm-number:#c2410c] [--cm-comment:#64748b] [--cm-type:#0369a1] [--cm-ident:#b45309] ' +
  '[--cm-punct:#475569] [--cm-border:#e2e8f0] [--cm-tooltip:#ffffff] [--cm-accent:#4f46e5] ' +
  'dark:[--cm-text:#e2e8f0] dark:[--cm-caret:#a5b4fc] dark:[--cm-gutter:#475569] dark:[--cm-active-line:#1e293b80] dark:[--cm-selection:#3730a3] ' +
  'dark:[--cm-keyword:#c4b5fd] dark:[--cm-string:#6ee7b7] dark:[--cm-number:#fdba74] dark:[--cm-comment:#94a3b8] dark:[--cm-type:#7dd3fc] ' +
  'dark:[--cm-ident:#fcd34d] dark:[--cm-punct:#94a3b8] dark:[--cm-border:#334155] dark:[--cm-tooltip:#0f172a] dark:[--cm-accent:#6366f1]'

function completionSource(items: CompletionItem[]) {
  const options: Completion[] = items.map((item) => ({
    label: item.label, type: item.type === 'snippet' ? 'text' : item.type === 'table' ? 'class' : 'property', detail: item.detail,
    apply: item.apply, boost: item.type === 'snippet' ? 2 : item.type === 'column' ? 1 : 0,
  }))
  return (context: CompletionContext) => {
    const word = context.matchBefore(/[\w$]+/)
    if (!word && !context.explicit) return null
    return { from: word ? word.from : context.pos, options, validFor: /^[\w$]*$/ }
  }
}

/** Ctrl/Cmd+Shift+F by the key's place on the keyboard, whatever letter case or layout the event reports. */
export const isFormatShortcut = (event: KeyboardEvent) =>
  (event.ctrlKey || event.metaKey) && event.shiftKey && !event.altKey && (event.code === 'KeyF' || event.key.toLowerCase() === 'f')

const autocompleteFor = (items: CompletionItem[], live: boolean, type: string) =>
  autocompletion({ activateOnTyping: live, override: [completionSource(items), keywordCompletionSource(editorDialect(type), true)] })

/**
 * The query text editor: CodeMirror 6 with the source's SQL dialect, completion from the schema and snippets,
 * and the editor's shortcuts. The server renders the text as plain lines; CodeMirror takes over in the browser.
 */
export default function SqlEditor(props: SqlEditorProps): JSX.Element {
  const host = useRef<HTMLDivElement>(null)
  const view = useRef<EditorView>(null)
  const latest = useRef(props)
  latest.current = props
  const [mounted, setMounted] = useState(false)
  const compartments = useRef({ language: new Compartment(), complete: new Compartment(), readOnly: new Compartment() })

  useEffect(() => {
    const c = compartments.current
    let timer: ReturnType<typeof setTimeout> | undefined
    const run = (fn: (cmds: SqlEditorCommands, v: EditorView) => void) => (v: EditorView) => {
      fn(latest.current.commands, v)
      return true
    }
    const execute = run((cmds, v) => {
      const text = v.state.sliceDoc(v.state.selection.main.from, v.state.selection.main.to)
      cmds.execute(text.trim() ? text : null)
    })
    // Format by the physical key: with Cmd held a Mac reports Shift+F as 'f', which a keymap would take for Cmd+F
    // (find) and open the search panel instead
    const formatKey = EditorView.domEventHandlers({
      keydown(event) {
        if (!isFormatShortcut(event)) return false
        event.preventDefault()
        latest.current.commands.format()
        return true
      },
    })
    const shortcuts = keymap.of([
      { key: 'Mod-Enter', run: execute }, { key: 'Ctrl-Enter', run: execute }, { key: 'Shift-Enter', run: execute }, { key: 'Alt-Enter', run: execute },
      { key: 'Mod-s', run: run((cmds) => cmds.save()), preventDefault: true },
      { key: 'Mod-p', run: run((cmds) => cmds.addParameter()), preventDefault: true },
    ])
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: latest.current.initialText,
        extensions: [
          Prec.highest(formatKey), Prec.highest(shortcuts),
          lineNumbers(), highlightActiveLineGutter(), highlightActiveLine(), history(), drawSelection(), indentOnInput(), bracketMatching(),
          closeBrackets(), highlightSelectionMatches(), EditorView.lineWrapping,
          keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap, ...completionKeymap, indentWithTab]),
          c.language.of(sql({ dialect: editorDialect(latest.current.sourceType), upperCaseKeywords: true })),
          c.complete.of(autocompleteFor(latest.current.completions, latest.current.liveAutocomplete, latest.current.sourceType)),
          c.readOnly.of(EditorState.readOnly.of(latest.current.readOnly)),
          syntaxHighlighting(highlight), theme, placeholder('SELECT …'),
          EditorView.contentAttributes.of({ 'aria-label': latest.current.label }),
          EditorView.updateListener.of((update) => {
            if (!update.docChanged) return
            clearTimeout(timer)
            timer = setTimeout(() => latest.current.onChange(update.state.doc.toString()), CHANGE_DEBOUNCE_MS)
          }),
        ],
      }),
    })
    view.current = editor
    setMounted(true)
    latest.current.onReady({
      insert(text) {
        const { from, to } = editor.state.selection.main
        editor.dispatch({ changes: { from, to, insert: text }, selection: { anchor: from + text.length }, scrollIntoView: true })
        editor.focus()
      },
      selectedText: () => editor.state.sliceDoc(editor.state.selection.main.from, editor.state.selection.main.to),
      text: () => editor.state.doc.toString(),
      setText(text) {
        editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text } })
      },
      focus: () => editor.focus(),
    })
    return () => {
      clearTimeout(timer)
      editor.destroy()
      view.current = null
    }
  }, [])

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.current.language.reconfigure(sql({ dialect: editorDialect(props.sourceType), upperCaseKeywords: true })) })
  }, [props.sourceType])
  useEffect(() => {
    view.current?.dispatch({ effects: compartments.current.complete.reconfigure(autocompleteFor(props.completions, props.liveAutocomplete, props.sourceType)) })
  }, [props.completions, props.liveAutocomplete, props.sourceType])
  useEffect(() => {
    view.current?.dispatch({ effects: compartments.current.readOnly.reconfigure(EditorState.readOnly.of(props.readOnly)) })
  }, [props.readOnly])

  return (
    // isolate: the editor's layers (panels, tooltips) stack among themselves, never above the page's dialogs
    <div className={`relative isolate h-full min-h-48 ${CSS_VARIABLES}`} data-sql-editor>
      {!mounted && (
        <pre className="h-full overflow-auto py-2 pl-12 font-mono text-[13px] leading-[1.6] whitespace-pre-wrap text-slate-800 dark:text-slate-200">
          {props.initialText}
        </pre>
      )}
      <div ref={host} className="h-full" />
    </div>
  )
}
