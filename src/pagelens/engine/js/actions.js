// The action half of the engine: the calls the action layer makes, by name.

import { actAtPoint, actFind, actHeal, actSelectorOf } from './act_find.js';
import { actCheckedState, actFieldText, actFocus, actFileInput, actFrameOffset, actLabelFor, actRangeWidget, actScroll, actScrollIntoView, actSelectOptions, actSetPickerValue } from './act_edit.js';
import { actDocToken, actObserveEnd, actObserveStart, actWaitForChange, actWaitForText, actWaitQuiet } from './act_observe.js';
import { actLoadCount, actLoadEnd, actLoadScroll, actLoadStart } from './act_load.js';
import { actReady } from './act_ready.js';
import { heldSecrets } from './sensitive.js';

export const actions = {
  find: actFind,
  heal: actHeal,
  atPoint: actAtPoint,
  selectorOf: actSelectorOf,
  ready: actReady,
  observeStart: actObserveStart,
  observeEnd: actObserveEnd,
  docToken: actDocToken,
  waitQuiet: actWaitQuiet,
  waitForText: actWaitForText,
  waitForChange: actWaitForChange,
  focus: actFocus,
  setPickerValue: actSetPickerValue,
  fieldText: actFieldText,
  rangeWidget: actRangeWidget,
  selectOptions: actSelectOptions,
  checkedState: actCheckedState,
  labelFor: actLabelFor,
  scroll: actScroll,
  scrollIntoView: actScrollIntoView,
  frameOffset: actFrameOffset,
  fileInput: actFileInput,
  loadStart: actLoadStart,
  loadScroll: actLoadScroll,
  loadCount: actLoadCount,
  loadEnd: actLoadEnd,
  heldSecrets,
};
