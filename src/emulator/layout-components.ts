// A handful of realistic layout components for GET /baselayout/component
// (the service reference, Layout component); a seed may replace them.

import type { LayoutComponent } from '../contract/wire.js';

const TABLE_OPTIONS = { leftAlign: 'left', rightAlign: 'right', leftTextStyle: 'normal', rightTextStyle: 'normal', maxCount: 5 };

/** The default component list. */
export function defaultLayoutComponents(): LayoutComponent[] {
  const c = (componentId: string, componentName: string, status: string, h: 'Y' | 'N', b: 'Y' | 'N', f: 'Y' | 'N', options: Record<string, unknown> | null, groupComponentId: string | null = null): LayoutComponent => ({
    componentId,
    componentName,
    iconImgFileUrl: `https://example.invalid/layout/icons/${componentId}.png`,
    status,
    headerYn: h,
    bodyYn: b,
    footerYn: f,
    options,
    groupComponentId,
  });
  return [
    c('CP_TITLE_01', 'Title', 'public', 'Y', 'N', 'N', null),
    c('CP_TEXT_01', 'Text', 'public', 'N', 'Y', 'N', null),
    c('CP_IMAGE_01', 'Image', 'public', 'Y', 'Y', 'N', null, 'GRP_MEDIA'),
    c('CP_VIDEO_01', 'Video', 'private', 'N', 'Y', 'N', null, 'GRP_MEDIA'),
    c('CP_TABLE_01', 'Table', 'public', 'N', 'Y', 'N', { ...TABLE_OPTIONS }),
    c('CP_TABLE_02', 'Table (wide)', 'tpl', 'N', 'Y', 'N', { ...TABLE_OPTIONS, maxCount: 10 }),
    c('CP_LIST_01', 'Bullet list', 'layout', 'N', 'Y', 'N', { maxCount: '5' }),
    c('CP_BUTTON_01', 'Button', 'public', 'N', 'N', 'Y', { color: '' }),
    c('CP_BUTTON_02', 'Two buttons', 'disable', 'N', 'N', 'Y', { color: '' }),
  ];
}
