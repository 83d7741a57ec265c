(function (doc) {
  for (var i = 0; i < PNP_WON.length; i++) {
    var won = doc.getField(PNP_WON[i]);
    if (won) won.textColor = $WIN;
  }
})(this);
