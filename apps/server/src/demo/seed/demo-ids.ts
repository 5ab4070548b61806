/**
 * The public ids of the demo items the seed always creates, one per state a share page can be
 * in. End-to-end tests, server tests and the README link to them; they never change.
 * `unknown` is well formed but belongs to nothing.
 */
export const DEMO_IDS = {
  users: {
    yuyuan: '-mXliFgiAQwcM9MK',
    satoru: 'eqv4wOwctxOn7xAR',
    karasuno: '1FS-NBzh0nYklfcq',
    chigu: '4ofylLRH2zEOdwlB',
    conductor: 'gyW6zXZ8XyiMwzFA',
    beika: 'Vg3PS_wn1h1T_8am',
  },
  goods: {
    gallery: 'XT9gwR1a_mH_vtRA',
    noPrice: '1_tv9KlIWLU6hH4D',
    wanted: 'wY3OTTe03tFPyXsv',
    private: 'S3gRhSz8IeksgEii',
    removed: 'pQ836SAx8ua--f5y',
  },
  cabinets: {
    main: 'mlN25p4nV8l4zowW',
    private: 'MWmE48Toal2Qmdlm',
    removed: 'sDxKukIY5ckSs0ME',
  },
  notes: {
    rich: 'Y741zuQyHnNvKWz5',
    hostile: 'rFI9uZqUwMGwP-Un',
    noImages: 'N5_si0nC1BJ0ygjN',
    private: 'N3Q28Pt-mLNzudM2',
    removed: 'haKDWycMXBGRVPn-',
  },
  /** Design drawings (designs/demo-designs.ts says who has which, and who has how many points). */
  designs: {
    starry: 'wxO_jgJMSSReojI9',
    sakura: 'A-3u4-IQxQK60Fy8',
    shelf: 'RvPhC9YCbIH_NQtF',
    premium: 's5sq9bF1uS8x5BLy',
    retired: 'SCNPKJYmt9dgPSLJ',
  },
  unknown: 'BmsOP1ywckU0CmUx',
} as const;

/** A demo user, by the name the demo content gives them. */
export type DemoUserKey = keyof typeof DEMO_IDS.users;
