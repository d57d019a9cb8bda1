// Once: the analyst views reading their keys from the table, and their comments again. Both are repeatable
// objects now (schema/repeatables.ts); this migration, frozen, does nothing.
export async function up(): Promise<void> {}
