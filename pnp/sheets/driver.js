var PNP_INPUTS = $INPUTS;
var PNP_OUTPUTS = $OUTPUTS;
var PNP_DRIVER = $DRIVER;
function pnp_text(field) {
  if (!field) return "";
  var value = field.value;
  if (typeof value === "number") return isNaN(value) ? "" : String(value);
  return (value === null || value === undefined) ? "" : String(value);
}
function pnp_run(doc, ev) {
  var values = {}, i, name, field;
  for (i = 0; i < PNP_INPUTS.length; i++) {
    values[PNP_INPUTS[i]] = pnp_text(doc.getField(PNP_INPUTS[i]));
  }
  var result = pnp_score(values);
  var bad = {};
  for (i = 0; i < result.bad.length; i++) bad[result.bad[i]] = true;
  for (i = 0; i < PNP_INPUTS.length; i++) {
    field = doc.getField(PNP_INPUTS[i]);
    if (field) field.textColor = bad[PNP_INPUTS[i]] ? $RED : $BLACK;
  }
  for (i = 0; i < PNP_OUTPUTS.length; i++) {
    name = PNP_OUTPUTS[i];
    field = doc.getField(name);
    if (!field) continue;
    field.textColor = String(result.values[name]).indexOf("!") >= 0 ? $RED : $BLACK;
    if (name !== PNP_DRIVER && pnp_text(field) !== result.values[name]) {
      field.value = result.values[name];
    }
  }
  ev.value = result.values[PNP_DRIVER];
}
pnp_run(this, event);
