// Action layer: what Python calls, as `__pagelensAct.<name>(...)` in the engine's
// isolated world. A global of its own, because zz_main.js assigns `__pagelens` last.
// (Function declarations are hoisted through the shared closure, so the modules this
// names may load after this one.)

globalThis.__pagelensAct = {
  find: actFind,
  heal: actHeal,
  atPoint: actAtPoint,
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
  selectOptions: actSelectOptions,
  checkedState: actCheckedState,
  labelFor: actLabelFor,
  scroll: actScroll,
  scrollIntoView: actScrollIntoView,
  frameOffset: actFrameOffset,
  isFileInput: actIsFileInput,
  loadStart: actLoadStart,
  loadScroll: actLoadScroll,
  loadCount: actLoadCount,
  loadEnd: actLoadEnd,
};
