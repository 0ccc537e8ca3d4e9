// The key of every message of the page: the English base catalogue's (./messages.en.ts, with the
// packs merged into it) and those of the packs that load with their view (training, interview,
// drill, device). Declared here, below both the translator (./translate.ts) and the whole
// catalogues (./messages.ts), so neither imports the other for it.
import type { BaseKey } from './messages.en.ts';
import type { TrainMessageKey } from './packs/training.ts';
import type { IvMessageKey } from './packs/interview.ts';
import type { DrillKey } from './packs/drill.ts';
import type { deviceEn } from './packs/device.ts';

export type MessageKey = BaseKey | TrainMessageKey | IvMessageKey | DrillKey | keyof typeof deviceEn;
