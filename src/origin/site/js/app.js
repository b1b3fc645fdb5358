// 演示源站的脚本：在页面上显示本页是否来自边缘缓存（读不到响应头时什么也不做）
(function () {
  'use strict';
  var note = document.createElement('p');
  note.textContent = '页面脚本已加载：' + new Date().toLocaleString('zh-CN');
  document.addEventListener('DOMContentLoaded', function () {
    var main = document.querySelector('main');
    if (main) main.appendChild(note);
  });
})();
