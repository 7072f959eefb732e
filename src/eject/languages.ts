/** The languages `eject` writes an app in (no imports: the command line reads it for every command). */
export const EJECT_LANGUAGES = ['typescript', 'python', 'java', 'go'] as const;
export type EjectLanguage = typeof EJECT_LANGUAGES[number];

/** The file the program of each language is written to (`eject --out DIR`). */
export const MAIN_FILES: { readonly [language in EjectLanguage]: string } = {
  typescript: 'main.ts',
  python: 'main.py',
  java: 'Main.java',
  go: 'main.go',
};
