// Once: the analyst views. They are repeatable objects now (schema/repeatables.ts), made after the
// migrations from today's definitions; this migration, frozen, makes nothing.
export async function up(): Promise<void> {}
