// The hand-written runners a custom entry may name (CustomStream.runner): src/sync/monitoring/runners.ts
// registers one object under each name, which both runs its stream and plans (prices) a run of it.
export const RUNNERS = Object.freeze({ events: 'monitoring-events', views: 'monitoring-views' } as const);

export type RunnerName = (typeof RUNNERS)[keyof typeof RUNNERS];
